// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createAppI18n } from '../../src/renderer/src/i18n';
import PagerBar from '../../src/renderer/src/components/PagerBar.vue';

describe('numbers in the interface language', () => {
  it.each([
    ['en', 'Page 1,200 of 1,250 (12,480 in all)'],
    ['de', 'Seite 1.200 von 1.250 (12.480 insgesamt)'],
    ['cs', 'Stránka 1\u00a0200 z 1\u00a0250 (celkem 12\u00a0480)'],
  ])('the pager writes its counts as %s does', (language, status) => {
    const wrapper = mount(PagerBar, {
      props: { modelValue: 1200, totalPages: 1250, total: 12480 },
      global: { plugins: [createAppI18n(language)] },
    });
    expect(wrapper.find('span').text()).toBe(status);
    wrapper.unmount();
  });
});
