import { mergeLinkedPosts } from '../../core/linkedPostMerge';
import type { StoredOrganizer, StoredVenue } from '../../store/schema';
import {
  mergeBodySchema,
  organizerMergeAnswerSchema,
  venueMergeAnswerSchema,
} from '../../../shared/schemas/merge';
import { arg } from '../args/define';
import { linkedPostIdArgs } from '../args/linkedPostArgs';
import { missingParams, refusedWrite } from '../errors';
import { presentOrganizer, presentVenue } from '../present/linkedPosts';
import { etagOf } from './etag';
import { administrators } from './permissions';
import { endpoint, ID_PARAM, type ApiRequest, type RouteDef } from './table';

type Kind = 'venue' | 'organizer';

/**
 * `id` in the path (a venue or organizer that exists, trashed or not) and `into` in the body. Whether `into` is
 * given, and can be kept, is judged after the permission check: nobody but an administrator learns of records.
 */
const mergeArgs = (kind: Kind) => ({
  ...linkedPostIdArgs(kind),
  into: arg(mergeBodySchema.shape.into, {
    description: `The id of the ${kind} to keep (required)`,
    type: 'integer',
    in: 'body',
    // Checked by the handler (a missing `into` is a 400 there), so that it answers after the permission.
    required: false,
  }),
});

async function merge(kind: Kind, request: ApiRequest<ReturnType<typeof mergeArgs>>) {
  const { store, caller, now, args } = request;
  if (args.into === undefined) throw missingParams(['into']);
  const result = await mergeLinkedPosts(kind, args.id!, args.into, { store, caller, now }).catch(
    refusedWrite,
  );
  const kept =
    result.kept.kind === 'venue'
      ? presentVenue(store.venues.get(result.kept.id) as StoredVenue, request.env, { canEdit: true })
      : presentOrganizer(store.organizers.get(result.kept.id) as StoredOrganizer, request.env, {
          canEdit: true,
        });
  return {
    body: {
      kept,
      merged_id: result.merged.id,
      moved: result.movedEventIds.length,
      moved_event_ids: result.movedEventIds,
    },
    // The kept record's version, as its own GET and writes answer it (its next write may send If-Match).
    headers: { ETag: etagOf(kind, result.kept) },
  };
}

function mergeRoute(kind: Kind): RouteDef {
  const plural = `${kind}s`;
  return {
    pattern: `/${plural}/(?P<id>\\d+)/merge`,
    path: `/${plural}/:id/merge`,
    docPath: `/${plural}/{id}/merge`,
    params: ID_PARAM,
    endpoints: [
      endpoint({
        methods: ['POST'],
        args: mergeArgs(kind),
        permission: administrators,
        handle: (request) => merge(kind, request),
        doc: {
          summary:
            `Merge the ${kind} {id} into the ${kind} "into" (administrators): every event linked to it is linked ` +
            `to the kept ${kind} instead, and it goes to the trash, in one write`,
          responses: {
            '200': {
              description: `The kept ${kind} and the events moved`,
              schema: kind === 'venue' ? venueMergeAnswerSchema : organizerMergeAnswerSchema,
            },
            '400': { description: `Unknown id, or "into" is the same, unknown or trashed ${kind}` },
            '401': { description: 'Credentials needed' },
            '403': { description: 'Administrators only' },
          },
        },
      }),
    ],
  };
}

/**
 * `POST calendar-desk/v1/venues/{id}/merge` and `…/organizers/{id}/merge` with `{ into }` (issue 15 item 3): one
 * place (or person) entered twice becomes one. Listed in /doc with the admin namespace as their server.
 */
export const linkedPostMergeRoutes: RouteDef[] = [mergeRoute('venue'), mergeRoute('organizer')];
