import type { LocaleInput } from '@fullcalendar/core';
import csLocale from '@fullcalendar/core/locales/cs';
import deLocale from '@fullcalendar/core/locales/de';
import enGbLocale from '@fullcalendar/core/locales/en-gb';
import esLocale from '@fullcalendar/core/locales/es';
import frLocale from '@fullcalendar/core/locales/fr';
import itLocale from '@fullcalendar/core/locales/it';
import plLocale from '@fullcalendar/core/locales/pl';

/**
 * FullCalendar's own translations of the interface languages (month and day names, button texts, "+2 more"),
 * picked by the interface's date locale (de-AT finds de). English without one is FullCalendar's built-in en-US.
 * Czech's "Nyní" (now) for the today button reads as "Dnes" (today) in Czech calendars.
 */
export const FULLCALENDAR_LOCALES: LocaleInput[] = [
  { ...csLocale, buttonText: { ...csLocale.buttonText, today: 'Dnes' } },
  deLocale,
  enGbLocale,
  esLocale,
  frLocale,
  itLocale,
  plLocale,
];
