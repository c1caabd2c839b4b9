import { createI18n } from 'vue-i18n';
import { en } from './en';
import { it } from './it';
import { pl } from './pl';

export const MESSAGES = { en, it, pl };

export function createAppI18n(locale: string) {
  return createI18n({ legacy: false, locale, fallbackLocale: 'en', messages: MESSAGES });
}
