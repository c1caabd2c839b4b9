import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { ApiConnection } from '../../../shared/bridge';
import { ApiClient, ApiError } from '../api/client';
import type { RouteBody } from '../../../shared/api/routes';
import { browserConnection, desktopBridge, savedConnection } from '../api/connection';
import type { SiteCurrency } from '../../../shared/schemas/currency';
import type { CategoryColors, SiteSettings } from '../../../shared/schemas/settings';
import { DEFAULT_SITE_CURRENCY } from '../calendar/price';

export type { SiteSettings };

/** Roles that may manage categories, and so pick their colours (the API checks it again). */
const CATEGORY_MANAGERS = ['administrator', 'editor', 'author'];

type SessionState = 'starting' | 'signed-out' | 'ready' | 'unreachable';

/** The site's time zone as last read, for what starts before the settings come (see main.ts). */
const ZONE_KEY = 'calendar-desk.siteTimezone';

/** The site time zone the settings gave last time in this browser, if any. */
export function rememberedTimezone(): string | null {
  return localStorage.getItem(ZONE_KEY);
}

/** Who we are to the local API: the connection, the signed-in user and the site settings. */
export const useSessionStore = defineStore('session', () => {
  const state = ref<SessionState>('starting');
  const client = shallowRef<ApiClient | null>(null);
  const settings = ref<SiteSettings | null>(null);
  const problem = ref('');
  const isDesktop = computed(() => desktopBridge() !== undefined);
  const siteTimezone = computed(() => settings.value?.timezone ?? 'UTC');
  const isAdministrator = computed(() => settings.value?.user.role === 'administrator');
  /** The currency of costs that name none of their own. */
  const siteCurrency = computed<SiteCurrency>(() => {
    const current = settings.value;
    return current
      ? {
          currency_symbol: current.currency_symbol,
          currency_position: current.currency_position,
          currency_code: current.currency_code,
        }
      : DEFAULT_SITE_CURRENCY;
  });
  const canManageCategories = computed(() => CATEGORY_MANAGERS.includes(settings.value?.user.role ?? ''));
  const categoryColors = computed<CategoryColors>(() => settings.value?.category_colors ?? {});

  /** Called once with the saved connection's client while its settings are asked for (see main.ts). */
  let onConnecting: ((client: ApiClient) => void) | null = null;
  function whenConnecting(callback: (client: ApiClient) => void): void {
    onConnecting = callback;
  }

  /** Checks a connection by reading the settings (401 for a wrong token) and adopts it. */
  async function connect(connection: ApiConnection): Promise<void> {
    const candidate = new ApiClient(connection);
    const asked = candidate.call('GET settings');
    onConnecting?.(candidate);
    onConnecting = null;
    const { data } = await asked;
    localStorage.setItem(ZONE_KEY, data.timezone);
    client.value = candidate;
    settings.value = data;
    state.value = 'ready';
    problem.value = '';
  }

  /** On start: the desktop bridge's connection, or this browser's session (its cookie), if any. */
  async function start(): Promise<void> {
    try {
      await connect(await savedConnection());
    } catch (error) {
      // No session (never signed in, signed out, or the server restarted since): the sign-in screen says how.
      if (error instanceof ApiError && error.status === 401 && !isDesktop.value) {
        state.value = 'signed-out';
        return;
      }
      state.value = 'unreachable';
      problem.value = error instanceof Error ? error.message : String(error);
    }
  }

  /** Opens this browser's session (the API sets its cookie) from `body` or the credentials sent, then connects. */
  async function openSession(body: { code?: string }, token?: string): Promise<void> {
    const connection = browserConnection();
    await new ApiClient(token ? { ...connection, token } : connection).call('POST session', { body });
    await connect(connection);
  }

  /** Signs this browser in with a one-time code (from a sign-in link); throws the API's error. */
  async function signInWithCode(code: string): Promise<void> {
    await openSession({ code });
  }

  /**
   * Signs this browser in with a token (`calendar-desk token` prints it), exchanged at once for a session:
   * the token is kept nowhere. Throws the API's error.
   */
  async function signIn(token: string): Promise<void> {
    await openSession({}, token.trim());
  }

  /** Signs out: the server ends this browser's session (the desktop app has none to end). */
  async function signOut(): Promise<void> {
    if (!isDesktop.value && client.value) await client.value.call('DELETE session').catch(() => undefined);
    localStorage.removeItem(ZONE_KEY);
    client.value = null;
    settings.value = null;
    state.value = 'signed-out';
  }

  async function updateSettings(patch: RouteBody<'PUT settings'>): Promise<void> {
    const { data } = await api().call('PUT settings', { body: patch });
    settings.value = data;
  }

  /** The API client; only valid once signed in (the router keeps other screens behind sign-in). */
  function api(): ApiClient {
    if (!client.value) throw new Error('Not connected to the local API yet.');
    return client.value;
  }

  return {
    state,
    client,
    settings,
    problem,
    isDesktop,
    siteTimezone,
    isAdministrator,
    siteCurrency,
    canManageCategories,
    categoryColors,
    start,
    signIn,
    signInWithCode,
    signOut,
    updateSettings,
    api,
    whenConnecting,
  };
});
