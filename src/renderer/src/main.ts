import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { loadRouteLocation } from 'vue-router';
import { createAppRouter } from './router';
import { createAppI18n } from './i18n';
import { rememberedTimezone, useSessionStore } from './stores/session';
import { useEventsStore } from './stores/events';
import { isCalendarView, isIsoDate } from './stores/calendarPlace';
import { visibleRange } from './calendar/dates';
import { DateTime } from 'luxon';
import { usePreferencesStore } from './stores/preferences';
import './styles.css';

async function boot() {
  const app = createApp(App);
  const pinia = createPinia();
  app.use(pinia);
  const preferences = usePreferencesStore();
  app.use(createAppI18n(preferences.language));
  const router = createAppRouter();
  // The first screen's code downloads while we learn who we are, instead of after (a failure is the router's
  // to report, when it loads the screen itself).
  loadRouteLocation(router.resolve(window.location.hash.slice(1) || '/')).catch(() => undefined);
  // Opening on the calendar: its first period's events are asked for at the same time as the settings (by the
  // site zone of last time), not after them; the calendar takes them if it opens on that period unfiltered.
  const session = useSessionStore();
  const path = window.location.hash.slice(1);
  // `/` is the calendar (a redirect, which resolve does not follow).
  const first = router.resolve(path && path !== '/' ? path : '/calendar');
  const zone = rememberedTimezone();
  if (first.name === 'calendar' && zone) {
    session.whenConnecting((client) => {
      const view = isCalendarView(first.query.view) ? first.query.view : preferences.calendarView;
      const date = isIsoDate(first.query.date)
        ? first.query.date
        : (DateTime.now().setZone(zone).toISODate() as string);
      const range = visibleRange(view, date, preferences.firstDay);
      useEventsStore().prefetchRange(client, range.start, range.end);
    });
  }
  // Learn who we are before the first screen, so the router can send a signed-out browser to sign in.
  await session.start();
  app.use(router);
  app.mount('#app');
}

void boot();
