import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Notice {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
  /**
   * An action offered with the notice, e.g. "Undo" after a delete; `done` is what is said once it has run
   * (an undo that says nothing leaves the user wondering whether it worked).
   */
  action?: { label: string; run: () => unknown; done: string };
}

const VISIBLE_MS = 6_000;
/** Errors kept on screen at once (the oldest goes first); a confirmation is always the latest one only. */
const MAX_ERRORS = 2;

/** Short messages at the bottom of the window: what just happened, and an undo where one exists. */
export const useNoticesStore = defineStore('notices', () => {
  const notices = ref<Notice[]>([]);
  let nextId = 1;

  function dismiss(id: number): void {
    notices.value = notices.value.filter((notice) => notice.id !== id);
  }

  function show(notice: Omit<Notice, 'id'>): number {
    const id = nextId++;
    // Few at a time, so they never pile up over the screen: one confirmation (the newest replaces it, its
    // undo gone with it as the user has moved on) and the last errors (they say what to do).
    const errors = notices.value.filter((old) => old.kind === 'error');
    const keptErrors = errors.slice(
      Math.max(0, errors.length - (notice.kind === 'error' ? MAX_ERRORS - 1 : MAX_ERRORS)),
    );
    const keptConfirmation =
      notice.kind === 'error' ? notices.value.filter((old) => old.kind !== 'error') : [];
    notices.value = [
      ...notices.value.filter((old) => keptErrors.includes(old) || keptConfirmation.includes(old)),
      { ...notice, id },
    ];
    // Errors stay until dismissed: the user must be able to read what to do.
    if (notice.kind !== 'error') setTimeout(() => dismiss(id), VISIBLE_MS);
    return id;
  }

  return { notices, show, dismiss };
});
