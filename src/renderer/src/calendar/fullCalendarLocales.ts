import type { LocaleInput } from '@fullcalendar/core';
import csLocale from '@fullcalendar/core/locales/cs';
import deLocale from '@fullcalendar/core/locales/de';
import enGbLocale from '@fullcalendar/core/locales/en-gb';
import esLocale from '@fullcalendar/core/locales/es';
import frLocale from '@fullcalendar/core/locales/fr';
import itLocale from '@fullcalendar/core/locales/it';
import plLocale from '@fullcalendar/core/locales/pl';

/** A unit's words, by the locale's button text of that unit (FullCalendar hands hints the button text). */
type ByUnit = Readonly<Record<string, string>>;

/**
 * The hints (tooltips and accessible names) of the toolbar's buttons, for locales that ship none: FullCalendar
 * would otherwise read "Previous Měsíc" to a Czech screen reader. German, Spanish and British English have their own.
 */
function hints(words: {
  prev: ByUnit;
  next: ByUnit;
  today: ByUnit;
  view: (unit: string) => string;
  navLink: string;
  more: (count: number) => string;
  close: string;
  time: string;
  event: string;
}): Partial<LocaleInput> {
  const pick = (byUnit: ByUnit) => (unit: string) => byUnit[unit] ?? unit;
  return {
    buttonHints: { prev: pick(words.prev), next: pick(words.next), today: pick(words.today) },
    viewHint: words.view,
    navLinkHint: words.navLink,
    moreLinkHint: words.more,
    closeHint: words.close,
    timeHint: words.time,
    eventHint: words.event,
  };
}

const czech = hints({
  prev: { Měsíc: 'Předchozí měsíc', Týden: 'Předchozí týden', Den: 'Předchozí den', Rok: 'Předchozí rok' },
  next: { Měsíc: 'Další měsíc', Týden: 'Další týden', Den: 'Další den', Rok: 'Další rok' },
  today: { Měsíc: 'Tento měsíc', Týden: 'Tento týden', Den: 'Dnes', Rok: 'Tento rok' },
  view: (unit) => `Zobrazení: ${unit.toLowerCase()}`,
  navLink: 'Přejít na $0',
  more: (count) => `Zobrazit další události: ${count}`,
  close: 'Zavřít',
  time: 'Čas',
  event: 'Událost',
});

const french = hints({
  prev: {
    Mois: 'Mois précédent',
    Semaine: 'Semaine précédente',
    Jour: 'Jour précédent',
    Année: 'Année précédente',
  },
  next: { Mois: 'Mois suivant', Semaine: 'Semaine suivante', Jour: 'Jour suivant', Année: 'Année suivante' },
  today: { Mois: 'Ce mois-ci', Semaine: 'Cette semaine', Jour: 'Aujourd’hui', Année: 'Cette année' },
  view: (unit) => `Vue ${unit.toLowerCase()}`,
  navLink: 'Aller au $0',
  more: (count) => (count === 1 ? 'Afficher 1 autre événement' : `Afficher ${count} autres événements`),
  close: 'Fermer',
  time: 'Heure',
  event: 'Événement',
});

const italian = hints({
  prev: {
    Mese: 'Mese precedente',
    Settimana: 'Settimana precedente',
    Giorno: 'Giorno precedente',
    Anno: 'Anno precedente',
  },
  next: {
    Mese: 'Mese successivo',
    Settimana: 'Settimana successiva',
    Giorno: 'Giorno successivo',
    Anno: 'Anno successivo',
  },
  today: { Mese: 'Questo mese', Settimana: 'Questa settimana', Giorno: 'Oggi', Anno: 'Quest’anno' },
  view: (unit) => `Vista ${unit.toLowerCase()}`,
  navLink: 'Vai a $0',
  more: (count) => (count === 1 ? 'Mostra un altro evento' : `Mostra altri ${count} eventi`),
  close: 'Chiudi',
  time: 'Ora',
  event: 'Evento',
});

const polish = hints({
  prev: {
    Miesiąc: 'Poprzedni miesiąc',
    Tydzień: 'Poprzedni tydzień',
    Dzień: 'Poprzedni dzień',
    Rok: 'Poprzedni rok',
  },
  next: {
    Miesiąc: 'Następny miesiąc',
    Tydzień: 'Następny tydzień',
    Dzień: 'Następny dzień',
    Rok: 'Następny rok',
  },
  today: { Miesiąc: 'Ten miesiąc', Tydzień: 'Ten tydzień', Dzień: 'Dziś', Rok: 'Ten rok' },
  view: (unit) => `Widok: ${unit.toLowerCase()}`,
  navLink: 'Przejdź do $0',
  more: (count) => `Pokaż więcej wydarzeń: ${count}`,
  close: 'Zamknij',
  time: 'Godzina',
  event: 'Wydarzenie',
});

/**
 * FullCalendar's own translations of the interface languages (month and day names, button texts, "+2 more"),
 * picked by the interface's date locale (de-AT finds de). English without one is FullCalendar's built-in en-US.
 * Czech's "Nyní" (now) for the today button reads as "Dnes" (today) in Czech calendars.
 */
export const FULLCALENDAR_LOCALES: LocaleInput[] = [
  { ...csLocale, ...czech, buttonText: { ...csLocale.buttonText, today: 'Dnes' } },
  deLocale,
  enGbLocale,
  // Spanish ships "Mes antes" for the previous month: "Mes anterior".
  {
    ...esLocale,
    buttonHints: {
      ...esLocale.buttonHints,
      prev: (unit: string) => `${unit} anterior`,
      next: (unit: string) => `${unit} siguiente`,
    },
  },
  { ...frLocale, ...french },
  { ...itLocale, ...italian },
  { ...plLocale, ...polish },
];
