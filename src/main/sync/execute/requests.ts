/**
 * The body sent for a local record: its fields, its references as the remote's ids, its picture as the remote
 * takes it, in the remote's wire names. A reference the remote lacks stops the record with a clear problem.
 */
import type { LocalRecord } from '../model';
import { mapRefs } from '../compare';
import { RecordProblem } from '../eventPassword';
import { toWireBody } from '../wireBody';
import type { ExecuteContext } from './context';
import type { RunPictures } from './pictures';
import { seriesFields } from './series';

/** The body of a create (`creating`) or an update of `record`; a picture to upload is uploaded first. */
export async function requestBody(
  context: ExecuteContext,
  pictures: RunPictures,
  record: LocalRecord,
  creating = false,
): Promise<Record<string, unknown>> {
  const refs = mapRefs(record.refs, context.links.remoteIdOf);
  for (const [field, value] of Object.entries(refs)) {
    const missing = (Array.isArray(value) ? value : [value]).find((item) => typeof item === 'string');
    if (missing) {
      throw new RecordProblem(
        'SYNC_MISSING_DEPENDENCY',
        `It refers to ${field === 'parent' ? 'parent category' : field} ${String(missing).slice(6)}, which is not on the remote (see that record's error).`,
      );
    }
  }
  const sent: Record<string, unknown> = {
    ...record.fields,
    ...record.send,
    ...(context.client.isCalendarDesk ? record.sendToCalendarDesk : {}),
  };
  // A create takes no empty texts (they are the defaults anyway); an update sends them to clear a field.
  if (creating) for (const [field, value] of Object.entries(sent)) if (value === '') delete sent[field];
  // No venue is left out (the original cannot remove one and treats 0 as "not given"); an empty list is
  // sent on update only, to clear what the remote has.
  for (const [field, value] of Object.entries(refs)) {
    if (value === 0 || (creating && Array.isArray(value) && value.length === 0)) continue;
    sent[field] = value;
  }
  return toWireBody(record.kind, {
    ...sent,
    ...seriesFields(context, record, creating),
    ...(await pictures.imageToSend(record, creating)),
  });
}

/** Removes the empty description and excerpt from a body and names them. */
export function takeEmptyTexts(sent: Record<string, unknown>): ('description' | 'excerpt')[] {
  const empty = (['description', 'excerpt'] as const).filter((field) => sent[field] === '');
  for (const field of empty) delete sent[field];
  return empty;
}
