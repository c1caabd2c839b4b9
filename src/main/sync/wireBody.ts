import type { SyncKind } from './model';

/**
 * A record's body in the types The Events Calendar's REST validation takes. It checks types strictly: a venue's
 * `show_map`/`show_map_link` and every `image` are declared strings there (`400 … is not of type string` for a
 * boolean or a number), so they go as `"true"`/`"false"` and `"15"`. A Calendar Desk reads both forms alike.
 * A term's description must not be empty there (REFERENCE §2, term args; a Calendar Desk follows it): an empty
 * one is left out, so a renamed term without a description still syncs (neither API can empty it).
 */
export function toWireBody(kind: SyncKind, body: Record<string, unknown>): Record<string, unknown> {
  const wire = { ...body };
  if (kind === 'venue') {
    for (const flag of ['show_map', 'show_map_link'] as const) {
      if (typeof wire[flag] === 'boolean') wire[flag] = wire[flag] ? 'true' : 'false';
    }
  }
  if ((kind === 'category' || kind === 'tag') && wire.description === '') delete wire.description;
  if (typeof wire.image === 'number') wire.image = String(wire.image);
  return wire;
}
