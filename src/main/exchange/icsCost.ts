import type ICAL from 'ical.js';
import type { CalendarStore } from '../store/store';
import type { StoredEvent } from '../store/schema';
import type { EventInput } from '../core/eventRecord';
import type { ImportProblem } from './errors';
import { eventCurrency, siteCurrency, typedCost } from '../core/cost';
import { eventCurrencySchemas } from '../../shared/schemas/currency';
import { X_PREFIX, xText } from './icsFields';

/**
 * iCalendar has no cost property: ours carry the cost as typed and the currency it is shown in (the event's,
 * else this site's), so another Calendar Desk imports the same price.
 */
const X_COST = `${X_PREFIX}COST`;
const X_SYMBOL = `${X_PREFIX}CURRENCY-SYMBOL`;
const X_POSITION = `${X_PREFIX}CURRENCY-POSITION`;
const X_CODE = `${X_PREFIX}CURRENCY-CODE`;

export function costProperties(event: StoredEvent, store: CalendarStore): [string, string][] {
  if (event.cost.length === 0) return [];
  const currency = eventCurrency(event, siteCurrency(store.settings));
  return [
    [X_COST, typedCost(event.cost)],
    [X_SYMBOL, currency.symbol],
    [X_POSITION, currency.position],
    [X_CODE, currency.code],
  ];
}

/** The cost and currency of a VEVENT's X- properties, checked as the API checks them. */
export function costInput(
  component: ICAL.Component,
  line: number,
  problems: ImportProblem[],
): Partial<EventInput> {
  const text = (name: string) => xText(component, name) ?? '';
  const cost = text(X_COST);
  if (!cost) return {};
  const input: Partial<EventInput> = { cost };
  const fields = [
    ['currency_symbol', X_SYMBOL, eventCurrencySchemas.symbol],
    ['currency_position', X_POSITION, eventCurrencySchemas.position],
    ['currency_code', X_CODE, eventCurrencySchemas.code],
  ] as const;
  for (const [field, property, schema] of fields) {
    const parsed = schema.safeParse(text(property));
    if (parsed.success) Object.assign(input, { [field]: parsed.data });
    else
      problems.push({
        line,
        message: `${property}: ${parsed.error.issues[0]!.message.replace('%s', field)}`,
      });
  }
  return input;
}
