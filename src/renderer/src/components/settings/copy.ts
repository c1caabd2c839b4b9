import { useI18n } from 'vue-i18n';
import { useNoticesStore } from '../../stores/notices';

/** Copies text to the clipboard and says so (or says to copy it by hand when the clipboard refuses). */
export function useCopy(): (text: string) => Promise<void> {
  const notices = useNoticesStore();
  const { t } = useI18n();
  return async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notices.show({ kind: 'info', text: t('settings.copied') });
    } catch {
      notices.show({ kind: 'error', text: t('settings.copyFailed') });
    }
  };
}
