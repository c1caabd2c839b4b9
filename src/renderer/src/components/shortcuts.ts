import { onBeforeUnmount, onMounted, ref } from 'vue';
import { useRouter } from 'vue-router';

/** True when a key press is meant for a text field, not for a shortcut. */
export function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('[contenteditable="true"]') !== null
  );
}

/** The app-wide single-key shortcuts; screens add their own (calendar views, save in the editor). */
export const GLOBAL_SHORTCUTS = [
  { key: 'n', action: 'shortcuts.newEvent' },
  { key: 'c', action: 'shortcuts.calendar' },
  { key: '/', action: 'shortcuts.search' },
  { key: '?', action: 'shortcuts.help' },
] as const;

export const CALENDAR_SHORTCUTS = [
  { key: 't', action: 'shortcuts.today' },
  { key: 'm', action: 'shortcuts.month' },
  { key: 'w', action: 'shortcuts.week' },
  { key: 'd', action: 'shortcuts.day' },
  { key: 'l', action: 'shortcuts.list' },
  { key: '← →', action: 'shortcuts.previousNext' },
] as const;

export const EDITOR_SHORTCUTS = [
  { key: 'Ctrl+S', action: 'shortcuts.save' },
  { key: 'Esc', action: 'shortcuts.close' },
] as const;

export function useGlobalShortcuts() {
  const router = useRouter();
  const helpOpen = ref(false);
  const onKey = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
    if (event.key === '?') helpOpen.value = true;
    else if (event.key === 'n') void router.push('/events/new');
    else if (event.key === 'c') void router.push('/calendar');
    else if (event.key === '/') void router.push({ path: '/events', query: { focus: '1' } });
    else return;
    event.preventDefault();
  };
  onMounted(() => window.addEventListener('keydown', onKey));
  onBeforeUnmount(() => window.removeEventListener('keydown', onKey));
  return { helpOpen };
}
