/**
 * The month's own "+N more" links. FullCalendar draws and measures every event it is given, hidden ones too, and
 * draws a day's "+N more" only for events it was given and hid; so the month gives it only the events a day shows
 * (see monthShare) and draws the link of the others itself, in the cell's bottom where FullCalendar puts its own,
 * with the same classes, texts and keys. Opening it gives that day all its events, and opens FullCalendar's own
 * link (with its popover, where events can be dragged) once it is drawn.
 */
export interface OwnMoreLinksHooks {
  /** How many of the day's events FullCalendar was not given (0: no link of ours). */
  countOf(day: string): number;
  /** The link's text and hint (title) for a count, in the calendar's language. */
  textsOf(count: number): { text: string; hint: string };
  /** Gives the day all its events (FullCalendar then draws its own "+N more" for it). */
  giveWholeDay(day: string): void;
}

/** How long an opened day waits for FullCalendar's own link before giving up (a change came in between). */
const OPEN_WAIT_MS = 3000;

export class OwnMoreLinks {
  private readonly cells = new Map<string, HTMLElement>();
  private readonly links = new Map<string, HTMLElement>();
  /** Days where FullCalendar drew its own link: its count includes ours (see moreLinkText), ours stays hidden. */
  private readonly drawnByCalendar = new Set<string>();
  private opening: { day: string; until: number } | null = null;

  constructor(private readonly hooks: OwnMoreLinksHooks) {}

  /** A month cell is in the page (FullCalendar's `dayCellDidMount`). */
  cellMounted(day: string, cell: HTMLElement): void {
    this.cells.set(day, cell);
    this.links.delete(day);
    this.update(day);
  }

  cellUnmounting(day: string, cell: HTMLElement): void {
    if (this.cells.get(day) !== cell) return;
    this.cells.delete(day);
    this.links.delete(day);
  }

  /** FullCalendar drew its own link in a day (`moreLinkDidMount`); an opened day's is clicked. */
  calendarLinkMounted(day: string, link: HTMLElement): void {
    this.drawnByCalendar.add(day);
    this.update(day);
    const opening = this.opening;
    if (opening?.day !== day) return;
    this.opening = null;
    // After FullCalendar's drawing, which this is called from.
    if (Date.now() <= opening.until) setTimeout(() => link.click());
  }

  calendarLinkUnmounting(day: string): void {
    this.drawnByCalendar.delete(day);
    this.update(day);
  }

  /** The counts changed (new events given): every cell's link again. */
  updateAll(): void {
    for (const day of this.cells.keys()) this.update(day);
  }

  private open(day: string): void {
    this.opening = { day, until: Date.now() + OPEN_WAIT_MS };
    this.hooks.giveWholeDay(day);
  }

  private update(day: string): void {
    const count = this.drawnByCalendar.has(day) ? 0 : this.hooks.countOf(day);
    let link = this.links.get(day);
    if (!count) {
      if (link) link.hidden = true;
      return;
    }
    if (!link?.isConnected) {
      const bottom = this.cells.get(day)?.querySelector('.fc-daygrid-day-bottom');
      if (!bottom) return;
      link = this.makeLink(day);
      bottom.append(link);
      this.links.set(day, link);
    }
    const { text, hint } = this.hooks.textsOf(count);
    link.textContent = text;
    link.title = hint;
    link.hidden = false;
  }

  /** As FullCalendar's: an anchor without address, reached by Tab, opened by click, Enter or Space. */
  private makeLink(day: string): HTMLElement {
    const link = document.createElement('a');
    link.className = 'fc-daygrid-more-link fc-more-link own-more-link';
    link.tabIndex = 0;
    link.addEventListener('click', (event) => {
      event.preventDefault();
      this.open(day);
    });
    link.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      this.open(day);
    });
    return link;
  }
}
