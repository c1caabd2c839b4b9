import type { SyncKind } from '../model';

/** Marks a link whose remote record is gone and the user chose to leave it so (`remote-wins`). */
export const REMOTE_GONE = 'remote-gone';

/**
 * Whether a create whose answer was lost, once found on the remote, is sent again as an update even when it
 * reads the same. An event cut off part-way (PHP killed inside The Events Calendar's create, after the post and
 * its meta, before the plugin's occurrence rows) answers every field by id or slug yet is in no list of the
 * site; an update writes the rest. Terms are not sent again (the plugin refuses an update's empty description).
 */
export const sentAgainWhenFound = (kind: SyncKind): boolean => kind === 'event';
