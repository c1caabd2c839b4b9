import { defineStore } from 'pinia';
import { ref, watch } from 'vue';

export type Theme = 'system' | 'light' | 'dark';
export type InterfaceLanguage = 'en' | 'it' | 'pl';
export type CalendarViewName = 'dayGridMonth' | 'timeGridWeek' | 'timeGridDay' | 'listMonth';

export const INTERFACE_LANGUAGES: readonly InterfaceLanguage[] = ['en', 'it', 'pl'];
const STORAGE_KEY = 'calendar-desk.preferences';

interface Saved {
  theme: Theme;
  language: InterfaceLanguage;
  calendarView: CalendarViewName;
  /** The first-run "Share this calendar" invitation was answered (opened or put away): it is not offered again. */
  shareGuideDone: boolean;
}

function initialLanguage(): InterfaceLanguage {
  const wanted = navigator.language.slice(0, 2) as InterfaceLanguage;
  return INTERFACE_LANGUAGES.includes(wanted) ? wanted : 'en';
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
    saved.language && INTERFACE_LANGUAGES.includes(saved.language) ? saved.language : initialLanguage(),
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

  return { theme, language, calendarView, shareGuideDone };
});
