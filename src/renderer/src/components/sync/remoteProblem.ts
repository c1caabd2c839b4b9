import { useI18n } from 'vue-i18n';
import { ApiError } from '../../api/client';

/**
 * What went wrong with a site, in words: the API's remote codes (remote_unreachable, remote_bad_credentials…)
 * have their own translated text; a failed connection says why (never a bare ENOTFOUND).
 */
export function useRemoteProblem() {
  const { t, te } = useI18n();
  return (error: unknown): string => {
    if (!(error instanceof ApiError)) return (error as Error).message;
    const key = error.data.remote_code === 'no_events_namespace' ? 'no_events_namespace' : error.code;
    if (key === 'remote_unreachable') {
      const network = String(error.data.network ?? '');
      const reason = te(`sync.network.${network}`)
        ? t(`sync.network.${network}`)
        : /CERT|SSL|TLS/i.test(network)
          ? t('sync.network.certificate')
          : t('sync.network.other');
      return t('sync.problems.remote_unreachable', { reason });
    }
    return te(`sync.problems.${key}`) ? t(`sync.problems.${key}`) : error.message;
  };
}
