import { it } from './it';
import { pl } from './pl';

export type DocLanguage = 'en' | 'it' | 'pl';

const DICTIONARIES: Record<Exclude<DocLanguage, 'en'>, Record<string, string>> = { it, pl };

/** An argument description in the language of the root (English text is the key; unknown texts stay English). */
export function translateDescription(text: string, language: DocLanguage): string {
  if (language === 'en') return text;
  return DICTIONARIES[language][text] ?? text;
}

/** Language of human-readable texts: `ml_language` when it is one we translate, else the language root. */
export function docLanguageOf(mlLanguage: unknown, languageRoot: string | null | undefined): DocLanguage {
  if (mlLanguage === 'en' || mlLanguage === 'it' || mlLanguage === 'pl') return mlLanguage;
  return languageRoot === 'it' || languageRoot === 'pl' ? languageRoot : 'en';
}
