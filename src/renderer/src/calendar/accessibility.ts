import type { DayCellMountArg, ViewMountArg } from '@fullcalendar/core';

/**
 * Repairs to FullCalendar's markup that its options cannot make (axe-core reports them as serious):
 * its arrow icons are `role="img"` without a name (the button's title already names them), and a day cell
 * labelled by its day number hides the events it holds from that label.
 */
export function fixToolbarIcons({ el }: ViewMountArg): void {
  const root = el.closest('.fc') ?? el;
  for (const icon of root.querySelectorAll('.fc-icon[role="img"]')) {
    icon.removeAttribute('role');
    icon.setAttribute('aria-hidden', 'true');
  }
}

export function unlabelDayCell({ el }: DayCellMountArg): void {
  // The cell's name then comes from its content: the day number (with its full date) and the events.
  el.removeAttribute('aria-labelledby');
}
