// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createAppI18n } from '../../src/renderer/src/i18n';
import SyncSameNames from '../../src/renderer/src/components/sync/SyncSameNames.vue';

/** The Publish screen's preview: venues of one name, the names keeping them apart gives, and both choices. */
describe('SyncSameNames', () => {
  it('names each pair with the name keeping it apart would give, and takes the choice', async () => {
    const wrapper = mount(SyncSameNames, {
      props: {
        choice: '',
        groups: [
          {
            kind: 'venue',
            name: 'Riverside Studio Berlin',
            localIds: [3, 8],
            apartNames: ['Riverside Studio Berlin', 'Riverside Studio Berlin (Kreuzberg)'],
          },
        ],
      },
      global: { plugins: [createAppI18n('en')] },
    });
    expect(wrapper.text()).toContain('Riverside Studio Berlin');
    expect(wrapper.text()).toContain('venue 8: kept apart as “Riverside Studio Berlin (Kreuzberg)”');
    await wrapper.get('[data-testid="same-names-keep-apart"]').setValue(true);
    expect(wrapper.emitted('update:choice')).toEqual([['keep-apart']]);
    await wrapper.get('[data-testid="same-names-merge"]').setValue(true);
    expect(wrapper.emitted('update:choice')!.at(-1)).toEqual(['merge']);
  });
});
