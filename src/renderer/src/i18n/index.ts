import { createI18n } from 'vue-i18n';
import { en } from './en';
import { it } from './it';
import { pl } from './pl';

export const MESSAGES = { en, it, pl };

/**
 * Polish counts have two plural forms after "one": 2-4 (22-24, …) "wydarzenia", else "wydarzeń". Its
 * counted messages give four choices: none | one | few | many.
 */
function polishPlural(choice: number, choicesLength: number): number {
  if (choicesLength < 4) return Math.min(choice, choicesLength - 1);
  if (choice === 0 || choice === 1) return choice;
  const tens = choice % 100;
  return choice % 10 >= 2 && choice % 10 <= 4 && (tens < 12 || tens > 14) ? 2 : 3;
}

export function createAppI18n(locale: string) {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: MESSAGES,
    pluralRules: { pl: polishPlural },
  });
}
