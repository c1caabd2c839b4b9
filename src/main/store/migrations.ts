import { SCHEMA_VERSION } from './schema';

/** One step forward: turns a file of `version - 1` into a file of `version`. */
export interface Migration {
  version: number;
  describe: string;
  migrate(data: Record<string, unknown>): Record<string, unknown>;
}

/** Every migration, oldest first. A new schema version adds one entry here and a test with an old file. */
export const MIGRATIONS: Migration[] = [
  {
    version: 2,
    describe: 'journal: the file records the last journal batch folded into it',
    migrate: (data) => ({ ...data, schemaVersion: 2, journalSeq: 0 }),
  },
];

export class MigrationError extends Error {
  readonly code = 'MIGRATION_FAILED';
}

/**
 * Brings raw data of any older schema version up to SCHEMA_VERSION, step by step. Returns the data and the
 * versions it went through (empty when it was current). Newer versions are refused by the caller.
 */
export function migrate(
  raw: Record<string, unknown>,
  migrations: Migration[] = MIGRATIONS,
  target = SCHEMA_VERSION,
): { data: Record<string, unknown>; applied: number[] } {
  let data = raw;
  const applied: number[] = [];
  const from = typeof raw.schemaVersion === 'number' ? raw.schemaVersion : 1;
  for (const migration of migrations) {
    if (migration.version <= from || migration.version > target) continue;
    try {
      data = migration.migrate(data);
    } catch (error) {
      throw new MigrationError(
        `Could not upgrade the data file to version ${migration.version} (${migration.describe}): ${(error as Error).message}`,
      );
    }
    applied.push(migration.version);
  }
  return { data, applied };
}
