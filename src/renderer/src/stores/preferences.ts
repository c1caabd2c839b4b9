import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import {
  browserLanguage,
  INTERFACE_LANGUAGES,
  isInterfaceLanguage,
  type InterfaceLanguage,
} from '../i18n/browserLanguage';
import { firstDayOfWeek } from '../calendar/weekStart';
import { formatLocale } from '../i18n/formats';

export type Theme = 'system' | 'light' | 'dark';
export type CalendarViewName = 'dayGridMonth' | 'timeGridWeek' | 'timeGridDay' | 'listMonth';

export { INTERFACE_LANGUAGES, type InterfaceLanguage };
const STORAGE_KEY = 'calendar-desk.preferences';

interface Saved {
  theme: Theme;
  language: InterfaceLanguage;
  calendarView: CalendarViewName;
  /** The first-run "Share this calendar" invitation was answered (opened or put away): it is not offered again. */
  shareGuideDone: boolean;
}

function initialLanguage(): InterfaceLanguage {
  return browserLanguage(navigator.languages.length ? navigator.languages : [navigator.language]);
}

function load(): Partial<Saved> {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<Saved>;
  } catch {
    return {};
  }
}

/** What this person prefers on this machine (kept in local storage, not in the calendar's data). */
export const usePreferencesStore = defineStore('preferences', () => {
  const saved = load();
  const theme = ref<Theme>(saved.theme ?? 'system');
  const language = ref<InterfaceLanguage>(
    isInterfaceLanguage(saved.language) ? saved.language : initialLanguage(),
  );
  const calendarView = ref<CalendarViewName>(saved.calendarView ?? 'dayGridMonth');
  const shareGuideDone = ref(saved.shareGuideDone === true);

  watch(
    [theme, language, calendarView, shareGuideDone],
    () => {
      const value: Saved = {
        theme: theme.value,
        language: language.value,
        calendarView: calendarView.value,
        shareGuideDone: shareGuideDone.value,
      };
      localStorage.setItem(STORAGE_KEY, JSON.stringify(value));
    },
    { flush: 'sync' },
  );

  /** The day weeks start on in the calendars (0 Sunday … 6 Saturday): as where the dates' conventions come from. */
  const firstDay = computed(() => firstDayOfWeek(formatLocale(language.value)));

  return { theme, language, calendarView, shareGuideDone, firstDay };
});
