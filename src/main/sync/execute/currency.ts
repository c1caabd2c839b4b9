/**
 * An event's currency on a WordPress site: its plugin's REST API reads the currency from the cost text alone
 * (`15€` gives €; `20€ / 10€ reduced`, `€15 - €25` or `€8,50` none, so the site shows its own default).
 * Where the site's answer shows another currency than the event's here, it is written into the event's meta
 * (one more request, for those events only), so the site shows the event's own, and `remote-wins` brings it
 * back from there.
 */
import type { LocalRecord, RemoteRecord } from '../model';
import type { ExecuteContext } from './context';

/** The record as the site shows it once it has the event's currency (`answer` when it already had it). */
export async function withShownCurrency(
  context: ExecuteContext,
  record: LocalRecord,
  sent: Record<string, unknown>,
  answer: RemoteRecord,
): Promise<RemoteRecord> {
  const wanted = record.shownCurrency;
  const shown = answer.texts?.currency;
  if (!context.client.isWordPress || record.kind !== 'event' || !wanted || !shown) return answer;
  if (shown.symbol === wanted.symbol && shown.position === wanted.position) return answer;
  const cost = typeof sent.cost === 'string' ? sent.cost : null;
  return context.client.setWordPressCurrency(answer, cost, wanted);
}
