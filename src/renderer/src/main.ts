import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { loadRouteLocation } from 'vue-router';
import { createAppRouter } from './router';
import { createAppI18n } from './i18n';
import { useSessionStore } from './stores/session';
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
  // Learn who we are before the first screen, so the router can send a signed-out browser to sign in.
  await useSessionStore().start();
  app.use(router);
  app.mount('#app');
}

void boot();
