import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';
import { useSessionStore } from './stores/session';

/** Hash history: the renderer is a static page served at `/`, so every screen is `/#/…` (menu links too). */
export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/calendar' },
  {
    path: '/signin',
    name: 'signin',
    component: () => import('./views/SignInView.vue'),
    meta: { public: true },
  },
  { path: '/calendar', name: 'calendar', component: () => import('./views/CalendarView.vue') },
  { path: '/events', name: 'events', component: () => import('./views/EventSearchView.vue') },
  { path: '/events/new', name: 'event-new', component: () => import('./views/EventEditorView.vue') },
  {
    path: '/events/:id(\\d+)',
    name: 'event-edit',
    component: () => import('./views/EventEditorView.vue'),
    props: (route) => ({ id: Number(route.params.id) }),
  },
  ...(['venues', 'organizers', 'categories', 'tags'] as const).map((kind) => ({
    path: `/${kind}`,
    name: kind,
    component: () => import('./views/RecordsView.vue'),
    props: { kind },
  })),
  { path: '/trash', name: 'trash', component: () => import('./views/TrashView.vue') },
  { path: '/import', name: 'import', component: () => import('./views/ImportView.vue') },
  { path: '/sync', name: 'sync', component: () => import('./views/SyncView.vue') },
  { path: '/settings', name: 'settings', component: () => import('./views/SettingsView.vue') },
  { path: '/share', name: 'share', component: () => import('./views/ShareGuideView.vue') },
  { path: '/:pathMatch(.*)*', redirect: '/calendar' },
];

export function createAppRouter() {
  const router = createRouter({ history: createWebHashHistory(), routes });
  router.beforeEach((to) => {
    const session = useSessionStore();
    if (to.meta.public || session.state !== 'signed-out') return true;
    return { name: 'signin', query: { next: to.fullPath } };
  });
  return router;
}
