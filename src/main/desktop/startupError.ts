/** Error codes of the store and engine that mean "your data folder", with what the user reads first. */
const HEADLINES: Record<string, string> = {
  DATA_FOLDER_IN_USE: 'The data folder is in use by another Calendar Desk.',
  DATA_FOLDER_UNUSABLE: 'The data folder cannot be used.',
  DATA_FILE_INVALID: 'Your calendar data could not be opened.',
  DATA_FILE_TOO_NEW: 'Your calendar data was saved by a newer Calendar Desk.',
  DATA_FILE_UNREADABLE: 'Your calendar data could not be read.',
  STORAGE_UNAVAILABLE: 'Your calendar data could not be opened.',
};

/** The text of the error box shown when the desktop app cannot start: what happened, where, what to do. */
export function startupErrorMessage(error: unknown, dataDir: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  const headline = (typeof code === 'string' && HEADLINES[code]) || 'Calendar Desk could not start.';
  const detail = error instanceof Error ? error.message : String(error);
  return [
    headline,
    detail,
    `Data folder: ${dataDir}\nThe desktop app takes another folder from the CALENDAR_DESK_DATA environment variable.`,
  ].join('\n\n');
}
