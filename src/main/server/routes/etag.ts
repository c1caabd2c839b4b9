import type Koa from 'koa';
import { ApiError } from '../errors';

/** The entity tag of a stored record: changes with every revision. */
export const etagOf = (kind: string, record: { id: number; revision: number }) =>
  `"${kind}-${record.id}-${record.revision}"`;

/**
 * Optimistic concurrency (CONTRACT §6): an `If-Match` that names none of the current tags is 412 and
 * nothing changes. Without `If-Match`, the last write wins.
 */
export function checkIfMatch(ctx: Koa.Context, currentTag: string): void {
  const header = ctx.get('If-Match');
  if (!header) return;
  const tags = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (tags.includes('*') || tags.includes(currentTag)) return;
  throw new ApiError(
    412,
    'rest_precondition_failed',
    'The record was changed since you read it (If-Match does not match its ETag). Read it again, then retry.',
  );
}
