import type { CalendarStore } from '../../store/store';
import type { Caller } from '../../core/capabilities';
import { changeSettings, mayChangeSettings, type SettingsChanges } from '../../core/settings';
import { updateSettingsArgs } from '../args/adminArgs';
import type { ArgValues } from '../args/define';
import { refusedWrite } from '../errors';
import { siteCurrency } from '../../core/cost';
import { DEFAULT_HORIZON_MONTHS } from '../../core/recurrence/series';
import { feedPastMonths } from '../../core/feeds/select';
import { writeBudgetOf } from '../../core/writeBudget';
import { siteSettingsSchema } from '../../../shared/schemas/settings';
import { signedIn } from './permissions';
import { endpoint, type ApiRequest, type ApiResponse, type Permission, type RouteDef } from './table';

/** The settings a request changes, by their stored names. */
const changesOf = (args: ArgValues<typeof updateSettingsArgs>): SettingsChanges => ({
  timezone: args.timezone,
  siteName: args.site_name,
  siteDescription: args.site_description,
  currencySymbol: args.currency_symbol,
  currencyPosition: args.currency_position,
  currencyCode: args.currency_code,
  categoryColors: args.category_colors,
  recurrenceHorizonMonths: args.recurrence_horizon_months,
  feedPastMonths: args.feed_past_months,
  writeBudgetCreatesPerHour: args.write_budget_creates_per_hour,
  writeBudgetOccurrencesPerHour: args.write_budget_occurrences_per_hour,
});

const settingsChangers: Permission<typeof updateSettingsArgs> = ({ caller, args }) =>
  mayChangeSettings(caller, changesOf(args));

/** The site settings and who is calling, as the desktop UI needs them. */
function presentSettings(store: CalendarStore, caller: Caller) {
  const { siteName, siteDescription, timezone, categoryColors } = store.settings;
  const currency = siteCurrency(store.settings);
  const budget = writeBudgetOf(store.settings);
  return {
    site_name: siteName,
    site_description: siteDescription,
    timezone,
    currency_symbol: currency.symbol,
    currency_position: currency.position,
    currency_code: currency.code,
    category_colors: categoryColors ?? {},
    recurrence_horizon_months: store.settings.recurrenceHorizonMonths ?? DEFAULT_HORIZON_MONTHS,
    feed_past_months: feedPastMonths(store.settings),
    write_budget_creates_per_hour: budget.creates,
    write_budget_occurrences_per_hour: budget.occurrences,
    user: { login: caller.login, role: caller.role },
  };
}

async function update(request: ApiRequest<typeof updateSettingsArgs>): Promise<ApiResponse> {
  const { store, caller, now } = request;
  await changeSettings(changesOf(request.args), { store, caller, now }).catch(refusedWrite);
  return { body: presentSettings(store, request.caller!) };
}

/**
 * `GET /settings` (any signed-in user: the UI learns its role, the site time zone and default currency) and `PUT /settings`
 * (administrators; validation comes first, as everywhere in the API). In the admin namespace `calendar-desk/v1`.
 */
export function settingsRoutes(): RouteDef[] {
  const settings = { description: 'The site settings and the caller', schema: siteSettingsSchema };
  return [
    {
      pattern: '/settings',
      path: '/settings',
      docPath: '/settings',
      endpoints: [
        endpoint({
          methods: ['GET'],
          args: {},
          permission: signedIn,
          handle: (request) => ({ body: presentSettings(request.store, request.caller!) }),
          doc: { summary: 'Read the site settings', responses: { '200': settings } },
        }),
        endpoint({
          methods: ['PUT', 'POST'],
          args: updateSettingsArgs,
          permission: settingsChangers,
          handle: update,
          doc: { summary: 'Change the site settings', responses: { '200': settings } },
        }),
      ],
    },
  ];
}
