import { archiveQuery } from '../../core/archiveQuery';
import type { EventQuery } from '../../core/eventQuery';
import type { ApiRequest } from '../routes/table';
import type { eventArchiveArgs } from './eventArgs';

/** The checked arguments of an event archive request, as core's archive query (the rules live there). */
export const archiveQueryOf = (
  request: Pick<ApiRequest<typeof eventArchiveArgs>, 'args' | 'store' | 'caller' | 'now' | 'raw'>,
) =>
  archiveQuery({
    filters: request.args,
    store: request.store,
    caller: request.caller,
    now: request.now,
    language: request.raw.ml_language as EventQuery['language'],
  });
