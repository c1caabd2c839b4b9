// @vitest-environment happy-dom
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { eventBody, startTestServer, type TestServer } from '../helpers/server';
import { postAs } from '../helpers/fixtures';
import { createAppI18n } from '../../src/renderer/src/i18n';
import TagPicker from '../../src/renderer/src/components/TagPicker.vue';
import CheckList from '../../src/renderer/src/components/CheckList.vue';
import VenuePicker from '../../src/renderer/src/components/VenuePicker.vue';
import RecordsView from '../../src/renderer/src/views/RecordsView.vue';
import EventEditorView from '../../src/renderer/src/views/EventEditorView.vue';
import EventRepeatFields from '../../src/renderer/src/components/editor/EventRepeatFields.vue';
import NoticeHost from '../../src/renderer/src/components/NoticeHost.vue';
import SettingsView from '../../src/renderer/src/views/SettingsView.vue';
import { createMemoryHistory, createRouter } from 'vue-router';
import RichTextEditor from '../../src/renderer/src/components/RichTextEditor.vue';
import { richTextKeepsAll } from '../../src/renderer/src/components/richText';
import { ApiError } from '../../src/renderer/src/api/client';
import { categoryTree } from '../../src/renderer/src/components/pickers';
import { useSessionStore } from '../../src/renderer/src/stores/session';
import { useNoticesStore } from '../../src/renderer/src/stores/notices';
import { usePreferencesStore } from '../../src/renderer/src/stores/preferences';
import type { TermResponse, VenueResponse } from '../../src/renderer/src/api/records';

let pinia: Pinia;
const plugins = () => ({ global: { plugins: [createAppI18n('en'), pinia] } });
const term = (id: number, name: string, parent = 0) => ({ id, name, parent }) as TermResponse;

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});

/** A real server, with the page at its address (the API refuses foreign origins). */
async function startServerForPage(): Promise<TestServer> {
  const server = await startTestServer();
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(
    `${server.engine.origin}/`,
  );
  return server;
}

/** Signs the session in to a real server through the desktop bridge, as the app does on start. */
async function signInTo(server: TestServer) {
  window.calendarDesk = {
    connection: async () => ({ apiRoot: server.engine.apiRoot, token: server.engine.adminToken }),
    appVersion: 'test',
    openExternal: async () => true,
  };
  await useSessionStore().start();
}

describe('TagPicker', () => {
  it('picks an existing tag by name whatever its case, and creates only unknown ones', async () => {
    const create = vi.fn(async (name: string) => term(9, name));
    const wrapper = mount(TagPicker, {
      props: {
        id: 'tags',
        modelValue: [],
        tags: [term(1, 'Outdoor')],
        create,
        'onUpdate:modelValue': () => {},
      },
      ...plugins(),
    });
    await wrapper.get('[data-testid="add-tag"]').setValue('  outdoor ');
    await wrapper.get('[data-testid="add-tag"]').trigger('keydown.enter');
    await flushPromises();
    expect(create).not.toHaveBeenCalled();
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([[1]]);

    await wrapper.setProps({ modelValue: [1] });
    await wrapper.get('[data-testid="add-tag"]').setValue('Family');
    await wrapper.get('.inline-create button').trigger('click');
    await flushPromises();
    expect(create).toHaveBeenCalledWith('Family');
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([[1, 9]]);
  });
});

describe('CheckList', () => {
  it('shows categories as a tree and toggles ids', async () => {
    const items = categoryTree([term(3, 'Jazz', 1), term(1, 'Music'), term(2, 'Art'), term(4, 'Orphan', 99)]);
    expect(items.map((item) => `${'-'.repeat(item.depth)}${item.name}`)).toEqual([
      'Art',
      'Music',
      '-Jazz',
      'Orphan',
    ]);
    const wrapper = mount(CheckList, {
      props: { id: 'cats', label: 'Categories', modelValue: [2], items },
      ...plugins(),
    });
    const boxes = wrapper.findAll('input[type="checkbox"]');
    expect(boxes.map((box) => (box.element as HTMLInputElement).checked)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    await boxes[2].setValue(true);
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([[2, 3]]);
  });
});

describe('VenuePicker', () => {
  it('creates a venue inline and shows the API message next to the name when refused', async () => {
    const create = vi
      .fn<(fields: Record<string, string>) => Promise<VenueResponse>>()
      .mockRejectedValueOnce(
        new ApiError(400, 'rest_invalid_param', 'Invalid parameter(s): venue', { venue: 'Name is taken.' }),
      )
      .mockResolvedValueOnce({ id: 5, venue: 'Hall' } as VenueResponse);
    const wrapper = mount(VenuePicker, {
      props: { id: 'venue', modelValue: null, venues: [], create },
      ...plugins(),
    });
    await wrapper.get('select').setValue('new');
    await wrapper.get('[data-testid="new-venue-name"]').setValue('Hall');
    await wrapper.get('button.primary').trigger('click');
    await flushPromises();
    expect(wrapper.get('.field-error').text()).toBe('Name is taken.');
    await wrapper.get('button.primary').trigger('click');
    await flushPromises();
    expect(create).toHaveBeenLastCalledWith({ venue: 'Hall', address: '', city: '', country: '' });
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([5]);
    expect(wrapper.find('fieldset').exists()).toBe(false);
  });
});

describe('RecordsView against the real API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServerForPage();
  });
  afterAll(() => server.close());

  it('creates an organizer, shows the API field error, lists and searches', async () => {
    await signInTo(server);
    const wrapper = mount(RecordsView, {
      props: { kind: 'organizers' },
      ...plugins(),
      attachTo: document.body,
    });
    await vi.waitFor(() => expect(wrapper.text()).toContain('No organizers yet'));

    await wrapper.get('[data-testid="new-record"]').trigger('click');
    await wrapper.get('#record-organizer').setValue('Anna Rossi');
    await wrapper.get('#record-email').setValue('anna@example.org');
    await wrapper.get('#record-website').setValue('anna-rossi.example');
    await wrapper.get('form').trigger('submit');
    await vi.waitFor(() => expect(wrapper.find('.field-error').exists()).toBe(true));
    expect(wrapper.get('.field-error').attributes('data-field')).toBe('record-website');
    expect(wrapper.get('.field-error').text()).toMatch(/http:\/\/ or https:\/\//);

    await wrapper.get('#record-website').setValue('https://anna-rossi.example');
    await wrapper.get('form').trigger('submit');
    await vi.waitFor(() => expect(wrapper.find('table').text()).toContain('Anna Rossi'));
    expect(wrapper.find('table').text()).toContain('anna@example.org');
    const stored = await server.api('organizers', { auth: server.admin });
    expect(stored.body.organizers).toEqual([expect.objectContaining({ organizer: 'Anna Rossi' })]);
    wrapper.unmount();
  });

  it('says how many events use a venue before trashing it, and its undo gives them their venue back', async () => {
    window.calendarDesk = {
      connection: async () => ({ apiRoot: server.engine.apiRoot, token: server.engine.adminToken }),
      appVersion: 'test',
      openExternal: async () => true,
    };
    await useSessionStore().start();
    const hall = (await postAs(server, 'venues', { venue: 'Town Hall' })).body;
    const ids: number[] = [];
    // Three events, one of them long past (the count is not limited to the coming months).
    for (const days of [2, 40, -400]) {
      const created = await postAs(
        server,
        'events',
        eventBody(`At the hall ${days}`, days, { venue: hall.id }),
      );
      ids.push(created.body.id);
    }
    const wrapper = mount(RecordsView, { props: { kind: 'venues' }, ...plugins(), attachTo: document.body });
    await vi.waitFor(() => expect(wrapper.find('table').text()).toContain('Town Hall'));
    const row = wrapper.findAll('tbody tr').find((tr) => tr.text().includes('Town Hall'))!;
    await row.get('button.danger').trigger('click');
    await vi.waitFor(() =>
      expect(document.body.textContent).toContain(
        '3 events use it: until you restore the venue, they show no venue.',
      ),
    );
    (document.body.querySelector('[data-testid="confirm"]') as HTMLButtonElement).click();
    await vi.waitFor(async () =>
      expect((await server.api(`venues/${hall.id}`, { auth: server.admin })).body.status).toBe('trash'),
    );
    for (const id of ids)
      expect((await server.api(`events/${id}`, { auth: server.admin })).body.venue).toEqual([]);

    const undo = useNoticesStore().notices.at(-1)!.action!;
    await undo.run();
    for (const id of ids) {
      expect((await server.api(`events/${id}`, { auth: server.admin })).body.venue).toMatchObject({
        id: hall.id,
        venue: 'Town Hall',
      });
    }
    wrapper.unmount();
  });
});

describe('the cost and its currency against the real API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServerForPage();
  });
  afterAll(() => server.close());

  /** The editor of an event, signed in, at its route, once its form is filled. */
  async function openEditor(id: number) {
    await signInTo(server);
    const router = editorRouter();
    await router.push(`/events/${id}`);
    const wrapper = mount(EventEditorView, {
      props: { id },
      global: { plugins: [createAppI18n('en'), pinia, router] },
      attachTo: document.body,
    });
    await vi.waitFor(() => expect(wrapper.find('#event-cost').exists()).toBe(true));
    return { router, wrapper };
  }

  function editorRouter() {
    return createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/calendar', component: { template: '<p>calendar</p>' } },
        { path: '/events/:id', component: EventEditorView },
        // Settings links to the Share guide.
        { path: '/share', name: 'share', component: { template: '<p>share</p>' } },
      ],
    });
  }

  it('the editor shows the cost as typed, offers the site currency, and saves the currency chosen', async () => {
    await server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
      method: 'PUT',
      auth: server.admin,
      json: { currency_symbol: '€', currency_position: 'postfix' },
    });
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: {
        title: 'Theatre',
        start_date: '2026-10-01 20:00',
        end_date: '2026-10-01 22:00',
        cost: '20 adults / 10 reduced',
      },
    });
    expect(created.body.cost).toBe('10€ – 20€');
    const { router, wrapper } = await openEditor(created.body.id);
    const cost = wrapper.get<HTMLInputElement>('#event-cost');
    expect(cost.element.value).toBe('20 adults / 10 reduced');
    const symbol = wrapper.get<HTMLInputElement>('#event-currency-symbol');
    expect(symbol.element.value).toBe('');
    expect(symbol.attributes('placeholder')).toBe('€');
    const position = wrapper.get<HTMLSelectElement>('#event-currency-position');
    expect(position.element.value).toBe('');
    expect(position.text()).toContain('Site default (10€)');

    await symbol.setValue('CHF');
    await position.setValue('prefix');
    expect(position.text()).toContain('Before the amount (CHF10)');
    await wrapper.get('form').trigger('submit');
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/calendar'));
    const saved = await server.api(`events/${created.body.id}`);
    expect(saved.body.cost).toBe('CHF10 – CHF20');
    const typed = await server.api(`events/${created.body.id}?context=edit`, { auth: server.admin });
    expect(typed.body.cost).toBe('20 adults / 10 reduced');
    wrapper.unmount();
  });

  it('the editor puts a refused currency on its field', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: { title: 'Fair', start_date: '2026-10-02 10:00', end_date: '2026-10-02 12:00', cost: '5' },
    });
    const { wrapper } = await openEditor(created.body.id);
    await wrapper.get('#event-currency-symbol').setValue('1€');
    await wrapper.get('form').trigger('submit');
    await vi.waitFor(() => expect(wrapper.find('.field-error').exists()).toBe(true));
    expect(wrapper.get('.field-error').attributes('data-field')).toBe('event-currency-symbol');
    expect(wrapper.get('.field-error').text()).toMatch(/currency symbol without digits/);
    expect((await server.api(`events/${created.body.id}`)).body.cost).not.toContain('1€');
    wrapper.unmount();
  });

  it('the editor chooses an organizer and a category created from its pickers, and previews a typed picture once the field is left', async () => {
    const created = await server.api('events', {
      method: 'POST',
      auth: server.admin,
      json: { title: 'Open rehearsal', start_date: '2026-10-03 18:00', end_date: '2026-10-03 19:00' },
    });
    const { router, wrapper } = await openEditor(created.body.id);
    await wrapper.get('[data-testid="add-organizer"]').setValue('Youth choir');
    await wrapper.get('[data-testid="add-organizer"]').trigger('keydown.enter');
    await wrapper.get('[data-testid="add-category"]').setValue('Rehearsals');
    await wrapper.get('[data-testid="add-category"]').trigger('keydown.enter');
    const checked = (list: string) =>
      wrapper
        .findAll(`#${list} input:checked`)
        .map((box) => box.element.closest('label')?.textContent?.trim());
    await vi.waitFor(() => expect(checked('event-organizers')).toEqual(['Youth choir']));
    await vi.waitFor(() => expect(checked('event-categories')).toEqual(['Rehearsals']));

    const picture = wrapper.get<HTMLInputElement>('#event-image');
    // Typing (input events only, unlike setValue): nothing is fetched at each key press.
    picture.element.value = 'https://example.org/poster.jpg';
    await picture.trigger('input');
    expect(wrapper.find('[data-testid="image-preview"]').exists()).toBe(false);
    await picture.trigger('change');
    expect(wrapper.get('[data-testid="image-preview"]').attributes('src')).toBe(
      'https://example.org/poster.jpg',
    );

    await wrapper.get('form').trigger('submit');
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/calendar'));
    const saved = (await server.api(`events/${created.body.id}`)).body;
    expect(saved.organizer.map((organizer) => organizer.organizer)).toEqual(['Youth choir']);
    expect(saved.categories.map((category: { name: string }) => category.name)).toEqual(['Rehearsals']);
    wrapper.unmount();
  });

  it('Settings: an administrator changes the site currency', async () => {
    await signInTo(server);
    const wrapper = mount(SettingsView, {
      global: { plugins: [createAppI18n('en'), pinia, editorRouter()] },
      attachTo: document.body,
    });
    await wrapper.get('#site-currency-symbol').setValue('zł');
    await wrapper.get('#site-currency-position').setValue('postfix');
    await wrapper.get('#site-currency-code').setValue('pln');
    await wrapper.get('[data-testid="save-currency"]').trigger('click');
    await vi.waitFor(async () => {
      const settings = await server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
        auth: server.admin,
      });
      expect(settings.body).toMatchObject({
        currency_symbol: 'zł',
        currency_position: 'postfix',
        currency_code: 'PLN',
      });
      // The screen has taken the answer (the code as the server normalised it): a new save may start.
      expect((wrapper.get('#site-currency-code').element as HTMLInputElement).value).toBe('PLN');
    });
    await wrapper.get('#site-currency-code').setValue('euro');
    await wrapper.get('[data-testid="save-currency"]').trigger('click');
    await vi.waitFor(() => expect(wrapper.find('.field-error').exists()).toBe(true));
    expect(wrapper.get('.field-error').attributes('data-field')).toBe('site-currency-code');
    wrapper.unmount();
  });

  it('Settings: an administrator changes the hourly limits of authors and contributors', async () => {
    await signInTo(server);
    const wrapper = mount(SettingsView, {
      global: { plugins: [createAppI18n('en'), pinia, editorRouter()] },
      attachTo: document.body,
    });
    const section = wrapper.get('[data-testid="write-budget-section"]');
    expect(section.text()).toContain('editors and administrators have no limit');
    expect(section.get('label[for="write-budget-creates"]').text()).toBe(
      'New events, venues and organizers per hour',
    );
    expect((wrapper.get('#write-budget-creates').element as HTMLInputElement).value).toBe('200');
    expect((wrapper.get('#write-budget-occurrences').element as HTMLInputElement).value).toBe('5000');
    const save = wrapper.get('[data-testid="save-write-budget"]');
    expect(save.attributes('disabled')).toBeDefined();
    await wrapper.get('#write-budget-creates').setValue('40');
    await wrapper.get('#write-budget-occurrences').setValue('800');
    await save.trigger('click');
    await vi.waitFor(async () => {
      const settings = await server.api(`${server.engine.apiRoot}calendar-desk/v1/settings`, {
        auth: server.admin,
      });
      expect(settings.body).toMatchObject({
        write_budget_creates_per_hour: 40,
        write_budget_occurrences_per_hour: 800,
      });
      expect(useNoticesStore().notices.at(-1)?.text).toMatch(
        /add 40 records and 800 repeating events an hour/,
      );
    });
    // A value the server refuses is shown on its field.
    await wrapper.get('#write-budget-creates').setValue('0');
    await save.trigger('click');
    await vi.waitFor(() => expect(wrapper.find('.field-error').exists()).toBe(true));
    expect(wrapper.get('.field-error').attributes('data-field')).toBe('write-budget-creates');
    await useSessionStore().updateSettings({ write_budget_creates_per_hour: 200 });
    wrapper.unmount();
  });
});

describe('RichTextEditor', () => {
  it('edits simple formatting as rich text, and markup it would drop as HTML source, unchanged', async () => {
    expect(richTextKeepsAll('<p>Hello <strong>all</strong></p><ul><li>one</li></ul>')).toBe(true);
    expect(richTextKeepsAll('<p>Poster:</p><img src="https://example.org/p.png">')).toBe(false);
    expect(richTextKeepsAll('<p class="lead">Styled</p>')).toBe(false);
    expect(richTextKeepsAll('<table><tr><td>1</td></tr></table>')).toBe(false);

    const html = '<p>Programme</p><table><tr><td>20:00</td><td>Overture</td></tr></table>';
    const wrapper = mount(RichTextEditor, {
      props: { id: 'description', label: 'Description', modelValue: html },
      ...plugins(),
    });
    const source = wrapper.get('[data-testid="html-source"]');
    expect((source.element as HTMLTextAreaElement).value).toBe(html);
    await source.setValue(`${html}<p>Doors at 19:30</p>`);
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([`${html}<p>Doors at 19:30</p>`]);
    wrapper.unmount();
  });
});

describe('EventRepeatFields', () => {
  /** The Repeat control of a new event, its lines and its start held as the editor holds them. */
  function repeatOf(start: { date: string; time: string }, recurrence: string[] = []) {
    const lines = { value: recurrence };
    const wrapper = mount(EventRepeatFields, {
      props: {
        recurrence,
        'onUpdate:recurrence': (value: string[]) => {
          lines.value = value;
        },
        start: { ...start, allDay: false, timezone: 'Europe/Rome' },
      },
      ...plugins(),
    });
    const moveStart = (date: string) =>
      wrapper.setProps({ start: { date, time: start.time, allDay: false, timezone: 'Europe/Rome' } });
    const ticked = () =>
      wrapper
        .findAll('.repeat-days input')
        .filter((box) => (box.element as HTMLInputElement).checked)
        .map((box) => box.attributes('data-testid')!.replace('repeat-day-', ''));
    return { wrapper, lines, moveStart, ticked };
  }

  it('takes the weekday of the start set before Weekly was chosen, follows the start until days are chosen', async () => {
    // Opened on a Saturday (today), the start then set to Tuesday 1 December, then Repeat → Weekly.
    const { wrapper, lines, moveStart, ticked } = repeatOf({ date: '2026-11-28', time: '19:30' });
    await moveStart('2026-12-01');
    await wrapper.get('[data-testid="repeat-frequency"]').setValue('weekly');
    expect(ticked()).toEqual(['TU']);
    // The clock of happy-dom's en-US, as a browser's.
    expect(wrapper.get('[data-testid="repeat-summary"]').text()).toBe('Every Tuesday at 7:30 PM');
    expect(lines.value).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU']);
    // The start moved to a Thursday after Weekly: the day moves with it.
    await moveStart('2026-12-03');
    expect(ticked()).toEqual(['TH']);
    expect(wrapper.get('[data-testid="repeat-summary"]').text()).toBe('Every Thursday at 7:30 PM');
    expect(lines.value).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TH']);
    // Days chosen by the user stay where the user put them.
    await wrapper.get('[data-testid="repeat-day-SA"]').setValue(true);
    await moveStart('2026-12-08');
    expect(ticked()).toEqual(['TH', 'SA']);
    expect(lines.value).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TH,SA']);
  });

  it('says the monthly day and weekday of the start as it is now', async () => {
    const { wrapper, lines, moveStart } = repeatOf({ date: '2026-11-28', time: '19:30' });
    await moveStart('2026-12-08');
    await wrapper.get('[data-testid="repeat-frequency"]').setValue('monthly');
    const options = () =>
      wrapper.findAll('[data-testid="repeat-monthly"] option').map((option) => option.text());
    expect(options()).toEqual(['Every month on day 8', 'Every month on the 2nd Tuesday']);
    await wrapper.get('[data-testid="repeat-monthly"]').setValue('weekday');
    expect(lines.value).toEqual(['RRULE:FREQ=MONTHLY;BYDAY=2TU']);
    await moveStart('2026-12-31');
    expect(options()).toEqual([
      'Every month on day 31',
      'Every month on the 5th Thursday',
      'Every month on the last Thursday',
    ]);
    expect(lines.value).toEqual(['RRULE:FREQ=MONTHLY;BYDAY=5TH']);
  });

  it('lists the days from the first day of the week where the user is, as the calendar does', async () => {
    const preferences = usePreferencesStore();
    const boxes = async (language: typeof preferences.language) => {
      preferences.language = language;
      const { wrapper } = repeatOf({ date: '2026-12-01', time: '19:30' });
      await wrapper.get('[data-testid="repeat-frequency"]').setValue('weekly');
      const days = wrapper.findAll('.repeat-days input').map((box) => box.attributes('data-testid'));
      const names = wrapper.findAll('.repeat-day').map((label) => label.text());
      wrapper.unmount();
      return { days: days.map((id) => id!.replace('repeat-day-', '')), names };
    };
    const previous = preferences.language;
    try {
      // happy-dom's system is American English: weeks from Sunday.
      const english = await boxes('en');
      expect(english.days).toEqual(['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']);
      expect(english.names[0]).toMatch(/^Sun/);
      expect(preferences.firstDay).toBe(0);
      const german = await boxes('de');
      expect(german.days).toEqual(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);
      expect(german.names[0]).toMatch(/^Mo/);
    } finally {
      preferences.language = previous;
    }
  });

  it('keeps a stored series’ days when one of its events is moved', async () => {
    const { moveStart, ticked, lines } = repeatOf({ date: '2026-12-01', time: '19:30' }, [
      'RRULE:FREQ=WEEKLY;BYDAY=TU',
    ]);
    await moveStart('2026-12-03');
    expect(ticked()).toEqual(['TU']);
    expect(lines.value).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU']);
  });
});

describe('NoticeHost', () => {
  it('says an undo is done once it has run, and says so when it fails instead', async () => {
    const wrapper = mount(NoticeHost, { ...plugins() });
    const notices = useNoticesStore();
    let undone = 0;
    notices.show({
      kind: 'success',
      text: '“Gala” moved to the trash.',
      action: { label: 'Undo', run: async () => (undone += 1), done: '“Gala” is back from the trash.' },
    });
    await flushPromises();
    await wrapper.get('.notice button.link-button').trigger('click');
    await flushPromises();
    expect(undone).toBe(1);
    expect(wrapper.findAll('.notice').map((notice) => notice.find('span').text())).toEqual([
      '“Gala” is back from the trash.',
    ]);

    notices.show({
      kind: 'success',
      text: '“Gala” rescheduled.',
      action: {
        label: 'Undo',
        run: async () => Promise.reject(new Error('The server is not answering.')),
        done: '“Gala” is back where it was.',
      },
    });
    await flushPromises();
    await wrapper.get('.notice button.link-button').trigger('click');
    await flushPromises();
    expect(wrapper.text()).toContain('The server is not answering.');
    expect(wrapper.text()).not.toContain('is back where it was');
    wrapper.unmount();
  });
});
