import { useI18n } from 'vue-i18n';

/** The API's bare messages, which say nothing about the field: the UI words them itself. */
export const GENERIC_MESSAGES = new Set(['Invalid parameter.', 'required']);

/** A message that speaks in parameter names (geo_lat, start_date) rather than in the form's words. */
const SPEAKS_IN_NAMES = /\b[a-z]+_[a-z_]+\b/;

/**
 * Words a field message of the API for the user, in the interface language: the translated text for that
 * field where there is one; the API's own message where it names the problem in plain words; else a
 * general "not valid" (never a parameter name such as geo_lat).
 */
export function useFieldMessages() {
  const { t, te } = useI18n();
  return (param: string, message: string): string => {
    if (message === 'required') return t('validation.required');
    const specific = `validation.invalid.${param}`;
    if (te(specific)) return t(specific);
    if (GENERIC_MESSAGES.has(message) || SPEAKS_IN_NAMES.test(message) || message.includes(param)) {
      return t('validation.invalidValue');
    }
    return message;
  };
}
