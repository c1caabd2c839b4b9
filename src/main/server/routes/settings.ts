import type { CalendarStore } from '../../store/store';
import { canManageTerms, type Caller } from '../../core/capabilities';
import { updateSettingsArgs } from '../args/adminArgs';
import { siteCurrency } from '../../core/cost';
import { signedIn } from './permissions';
import { endpoint, type ApiRequest, type ApiResponse, type Permission, type RouteDef } from './table';

/**
 * Category colours are the calendar's look: whoever may manage categories may pick them. The rest of the
 * settings are the site's: administrators only.
 */
const settingsChangers: Permission<typeof updateSettingsArgs> = ({ caller, args }) => {
  if (caller?.role === 'administrator') return true;
  const onlyColours = Object.entries(args).every(
    ([name, value]) => name === 'category_colors' || value === undefined,
  );
  return onlyColours && args.category_colors !== undefined && canManageTerms(caller, 'category');
};

/** The site settings and who is calling, as the desktop UI needs them. */
function presentSettings(store: CalendarStore, caller: Caller) {
  const { siteName, siteDescription, timezone, categoryColors } = store.settings;
  const currency = siteCurrency(store.settings);
  return {
    site_name: siteName,
    site_description: siteDescription,
    timezone,
    currency_symbol: currency.symbol,
    currency_position: currency.position,
    currency_code: currency.code,
    category_colors: categoryColors ?? {},
    user: { login: caller.login, role: caller.role },
  };
}

async function update(request: ApiRequest<typeof updateSettingsArgs>): Promise<ApiResponse> {
  const { store, args } = request;
  const next = {
    ...store.settings,
    ...(args.timezone !== undefined ? { timezone: args.timezone } : {}),
    ...(args.site_name !== undefined ? { siteName: args.site_name } : {}),
    ...(args.site_description !== undefined ? { siteDescription: args.site_description } : {}),
    ...(args.currency_symbol !== undefined ? { currencySymbol: args.currency_symbol } : {}),
    ...(args.currency_position !== undefined ? { currencyPosition: args.currency_position } : {}),
    ...(args.currency_code !== undefined ? { currencyCode: args.currency_code } : {}),
    ...(args.category_colors !== undefined ? { categoryColors: args.category_colors } : {}),
  };
  await store.mutate((tx) => tx.setSettings(next));
  return { body: presentSettings(store, request.caller!) };
}

/**
 * `GET /settings` (any signed-in user: the UI learns its role, the site time zone and default currency) and `PUT /settings`
 * (administrators; validation comes first, as everywhere in the API). In the admin namespace `calendar-desk/v1`.
 */
export function settingsRoutes(): RouteDef[] {
  const settings = { description: 'The site settings and the caller' };
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
