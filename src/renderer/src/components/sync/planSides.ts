import type { Operation } from '../../../../shared/schemas/sync';

/** One line of the preview: what happens to a record, and the fields it touches (when known). */
export interface PlanRow {
  /** Message key of what happens (incoming steps have their own words: `sync.operations.incoming.*`). */
  action: string;
  kind: Operation['kind'];
  title: string;
  fields: string[];
}

/**
 * A plan split by the way its changes go: what this calendar sends to the site, and what it takes from it
 * (records imported, updated from the site, moved to the trash). A merge can do both: its fields are split.
 * `accept` and `unlink` change no record on either side, so they are not listed.
 */
export function planSides(operations: Operation[]): { outgoing: PlanRow[]; incoming: PlanRow[] } {
  const outgoing: PlanRow[] = [];
  const incoming: PlanRow[] = [];
  for (const operation of operations) {
    const { kind, title } = operation;
    switch (operation.type) {
      case 'import':
      case 'pull':
      case 'trash':
        incoming.push({ action: `sync.operations.incoming.${operation.type}`, kind, title, fields: [] });
        break;
      case 'merge':
        if (operation.toLocal.length)
          incoming.push({ action: 'sync.operations.incoming.pull', kind, title, fields: operation.toLocal });
        if (operation.toRemote.length)
          outgoing.push({ action: 'sync.operations.update', kind, title, fields: operation.toRemote });
        break;
      case 'update':
        outgoing.push({
          action: 'sync.operations.update',
          kind,
          title,
          fields: (operation.diff ?? []).map((d) => d.field),
        });
        break;
      case 'create':
      case 'delete':
      case 'adopt':
        outgoing.push({ action: `sync.operations.${operation.type}`, kind, title, fields: [] });
        break;
      default:
        break;
    }
  }
  return { outgoing, incoming };
}
