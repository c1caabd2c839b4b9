import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Notice {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
  /** An action offered with the notice, e.g. "Undo" after a delete. */
  action?: { label: string; run: () => unknown };
}

const VISIBLE_MS = 6_000;
const MAX_SHOWN = 3;

/** Short messages at the bottom of the window: what just happened, and an undo where one exists. */
export const useNoticesStore = defineStore('notices', () => {
  const notices = ref<Notice[]>([]);
  let nextId = 1;

  function dismiss(id: number): void {
    notices.value = notices.value.filter((notice) => notice.id !== id);
  }

  function show(notice: Omit<Notice, 'id'>): number {
    const id = nextId++;
    // A few at a time: older confirmations make room (errors are kept).
    const errors = notices.value.filter((old) => old.kind === 'error');
    const older = notices.value.filter((old) => old.kind !== 'error');
    const room = Math.max(0, MAX_SHOWN - 1 - errors.length);
    const confirmations = older.slice(Math.max(0, older.length - room));
    notices.value = [
      ...notices.value.filter((old) => old.kind === 'error' || confirmations.includes(old)),
      { ...notice, id },
    ];
    // Errors stay until dismissed: the user must be able to read what to do.
    if (notice.kind !== 'error') setTimeout(() => dismiss(id), VISIBLE_MS);
    return id;
  }

  return { notices, show, dismiss };
});
