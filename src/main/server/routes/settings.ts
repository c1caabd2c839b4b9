import Router from '@koa/router';
import type Koa from 'koa';
import type { CalendarStore } from '../../store/store';
import { canManageTerms, type MaybeCaller } from '../../core/capabilities';
import { validateArgs } from '../args/define';
import { updateSettingsArgs } from '../args/adminArgs';
import { FORBIDDEN } from '../errors';

/** The site settings and who is calling, as the desktop UI needs them. */
function presentSettings(store: CalendarStore, caller: NonNullable<MaybeCaller>) {
  const { siteName, siteDescription, timezone, categoryColors } = store.settings;
  return {
    site_name: siteName,
    site_description: siteDescription,
    timezone,
    category_colors: categoryColors ?? {},
    user: { login: caller.login, role: caller.role },
  };
}

/**
 * `GET /settings` (any signed-in user: the UI learns its role and the site time zone) and `PUT /settings`
 * (administrators). Mounted under the admin namespace `calendar-desk/v1`.
 */
export function settingsRoutes({ store }: { store: CalendarStore }): Router {
  const router = new Router({ sensitive: false, strict: false });
  const callerOf = (ctx: Koa.Context) => {
    const caller = (ctx.state as { caller: MaybeCaller }).caller;
    if (!caller) throw FORBIDDEN(false);
    return caller;
  };
  router.get('/settings', async (ctx) => {
    ctx.body = await store.readSettled(() => presentSettings(store, callerOf(ctx)));
  });
  const update = async (ctx: Koa.Context) => {
    const body = ctx.request.body;
    const raw =
      body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const caller = callerOf(ctx);
    // Validation before the role check, as everywhere in the API (400 before 403).
    const args = validateArgs(updateSettingsArgs, raw, { store, caller });
    // Category colours are the calendar's look: whoever may manage categories may pick them. The rest is the
    // site's: administrators only.
    const siteFields =
      args.timezone !== undefined || args.site_name !== undefined || args.site_description !== undefined;
    if (siteFields && caller.role !== 'administrator') throw FORBIDDEN(true);
    if (args.category_colors !== undefined && !canManageTerms(caller, 'category')) throw FORBIDDEN(true);
    const next = {
      ...store.settings,
      ...(args.timezone !== undefined ? { timezone: args.timezone } : {}),
      ...(args.site_name !== undefined ? { siteName: args.site_name } : {}),
      ...(args.site_description !== undefined ? { siteDescription: args.site_description } : {}),
      ...(args.category_colors !== undefined ? { categoryColors: args.category_colors } : {}),
    };
    await store.mutate((tx) => tx.setSettings(next));
    ctx.body = presentSettings(store, caller);
  };
  router.put('/settings', update);
  router.post('/settings', update);
  return router;
}
