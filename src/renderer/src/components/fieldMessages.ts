import { useI18n } from 'vue-i18n';

/** The API's bare messages, which say nothing about the field: the UI words them itself. */
export const GENERIC_MESSAGES = new Set(['Invalid parameter.', 'required']);

/**
 * Words a field message of the API for the user: a specific translated text where the API's says only
 * "invalid" or "required", the API's own message otherwise (it names the problem).
 */
export function useFieldMessages() {
  const { t, te } = useI18n();
  return (param: string, message: string): string => {
    if (!GENERIC_MESSAGES.has(message)) return message;
    if (message === 'required') return t('validation.required');
    const specific = `validation.invalid.${param}`;
    return te(specific) ? t(specific) : t('validation.invalidValue');
  };
}
