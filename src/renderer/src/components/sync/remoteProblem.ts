import { useI18n } from 'vue-i18n';
import { ApiError } from '../../api/client';

/**
 * What went wrong with a site, in words: the API's remote codes (remote_unreachable, remote_bad_credentials…)
 * have their own translated text; a failed connection says why (never a bare ENOTFOUND).
 */
/** Remote codes that say more than their error code: a site without events, a CalDAV server's calendars. */
const OWN_WORDS = new Set([
  'no_events_namespace',
  'not_caldav',
  'no_calendar',
  'several_calendars',
  'no_such_calendar',
]);

export function useRemoteProblem() {
  const { t, te } = useI18n();
  return (error: unknown): string => {
    if (!(error instanceof ApiError)) return (error as Error).message;
    const remoteCode = String(error.data.remote_code ?? '');
    const key = OWN_WORDS.has(remoteCode) ? remoteCode : error.code;
    const calendars = Array.isArray(error.data.calendars)
      ? error.data.calendars.map((name) => `“${String(name)}”`)
      : [];
    if (key === 'remote_unreachable') {
      const network = String(error.data.network ?? '');
      const reason = te(`sync.network.${network}`)
        ? t(`sync.network.${network}`)
        : /CERT|SSL|TLS/i.test(network)
          ? t('sync.network.certificate')
          : t('sync.network.other');
      return t('sync.problems.remote_unreachable', { reason });
    }
    const params = { count: calendars.length, names: calendars.join(', ') };
    return te(`sync.problems.${key}`) ? t(`sync.problems.${key}`, params) : error.message;
  };
}
