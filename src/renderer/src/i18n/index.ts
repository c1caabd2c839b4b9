import { createI18n } from 'vue-i18n';
import { cs } from './cs';
import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { pl } from './pl';

/** Every interface language's messages (English is the source of the keys; a test checks the others). */
export const MESSAGES = { cs, en, fr, de, it, pl, es };

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

/**
 * Czech counts as Polish, but "few" is 2-4 only (22 is "22 událostí", where Polish says "22 wydarzenia"):
 * none | one | few | many.
 */
function czechPlural(choice: number, choicesLength: number): number {
  if (choicesLength < 4) return Math.min(choice, choicesLength - 1);
  if (choice === 0 || choice === 1) return choice;
  return choice >= 2 && choice <= 4 ? 2 : 3;
}

export function createAppI18n(locale: string) {
  return createI18n({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: MESSAGES,
    pluralRules: { pl: polishPlural, cs: czechPlural },
  });
}
