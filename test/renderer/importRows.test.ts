import { describe, expect, it } from 'vitest';
import {
  countActions,
  fileKindOf,
  percentDone,
  problemsOf,
  lastRefreshCounts,
  rowsForReview,
} from '../../src/renderer/src/components/import/importRows';
import { ApiError } from '../../src/renderer/src/api/client';
import type { ImportRow } from '../../src/renderer/src/stores/imports';
import { formatMoment } from '../../src/renderer/src/i18n/formats';

const row = (line: number, action: ImportRow['action'], reason?: string): ImportRow => ({
  line,
  kind: 'events',
  title: `Row ${line}`,
  action,
  ...(reason ? { reason } : {}),
});

describe('the Import screen’s preview', () => {
  it('lists the rows needing attention first (skips, then what goes to the trash), each group in file order', () => {
    const rows = [
      row(2, 'unchanged'),
      row(3, 'create'),
      row(4, 'skip', 'no start date'),
      row(5, 'update'),
      row(6, 'trash'),
      row(7, 'skip', 'end before start'),
      row(8, 'create'),
    ];
    expect(rowsForReview(rows).map((shown) => shown.line)).toEqual([4, 7, 6, 3, 8, 5, 2]);
    // The file's rows are left as they came.
    expect(rows.map((shown) => shown.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it('reads the counts the server kept of an address’s last refresh, and none when it kept none', () => {
    expect(lastRefreshCounts({ format: 'ics', row_counts: { create: 1, update: 2, trash: 3 } })).toEqual({
      create: 1,
      update: 2,
      unchanged: 0,
      skip: 0,
      trash: 3,
    });
    expect(lastRefreshCounts({ format: 'ics' })).toBeNull();
    expect(lastRefreshCounts(null)).toBeNull();
  });

  it('counts the rows per action', () => {
    expect(countActions([row(2, 'create'), row(3, 'create'), row(4, 'skip'), row(5, 'unchanged')])).toEqual({
      create: 2,
      update: 0,
      unchanged: 1,
      skip: 1,
      trash: 0,
    });
  });

  it('takes .ics, .ical, .csv and .json files, whatever the case of the name, and nothing else', () => {
    expect(fileKindOf('Season.ICS')).toBe('ics');
    expect(fileKindOf('export.ical')).toBe('ics');
    expect(fileKindOf('events.2026.csv')).toBe('csv');
    expect(fileKindOf('backup.json')).toBe('json');
    expect(fileKindOf('poster.pdf')).toBeNull();
    expect(fileKindOf('csv')).toBeNull();
  });

  it('reads the problems of a refused file with their lines, ignoring what is not a problem', () => {
    const refused = ApiError.fromBody(400, {
      code: 'import_invalid',
      message: 'The file has 2 problems.',
      data: {
        status: 400,
        problems: [{ line: 3, message: 'Event Start Date is missing.' }, { message: 'No header.' }, 'junk'],
      },
    });
    expect(problemsOf(refused)).toEqual([
      { line: 3, message: 'Event Start Date is missing.' },
      { line: 0, message: 'No header.' },
    ]);
    expect(problemsOf(new Error('network'))).toEqual([]);
    expect(problemsOf(ApiError.fromBody(403, { code: 'rest_forbidden', message: 'No.' }))).toEqual([]);
  });

  it('shows the progress in percent, 0 while the total is unknown', () => {
    expect(percentDone(0, 0)).toBe(0);
    expect(percentDone(1, 3)).toBe(33);
    expect(percentDone(3, 3)).toBe(100);
  });

  it('writes when an import ran as the interface language does, and an unreadable moment as given', () => {
    expect(formatMoment('2026-06-05T18:30:00Z', 'it')).toMatch(/5 giu 2026.*\d{2}:\d{2}/);
    expect(formatMoment('soon', 'en')).toBe('soon');
  });
});
