import type { Settings } from '../store/schema';
import { canManageTerms, type MaybeCaller } from './capabilities';
import { extendAllSeries } from './recurrence/series';
import { refuseUnless, type WriteCall } from './writes';

/** The settings a change may set (absent: unchanged). */
export type SettingsChanges = Partial<
  Pick<
    Settings,
    | 'timezone'
    | 'siteName'
    | 'siteDescription'
    | 'currencySymbol'
    | 'currencyPosition'
    | 'currencyCode'
    | 'categoryColors'
    | 'recurrenceHorizonMonths'
    | 'feedPastMonths'
    | 'writeBudgetCreatesPerHour'
    | 'writeBudgetOccurrencesPerHour'
  >
>;

/**
 * Category colours are the calendar's look: whoever may manage categories may pick them. The rest of the
 * settings are the site's: administrators only.
 */
export function mayChangeSettings(caller: MaybeCaller, changes: SettingsChanges): boolean {
  if (caller?.role === 'administrator') return true;
  const onlyColours = Object.entries(changes).every(
    ([name, value]) => name === 'categoryColors' || value === undefined,
  );
  return onlyColours && changes.categoryColors !== undefined && canManageTerms(caller, 'category');
}

/** Changes the site settings for a caller who may (see {@link mayChangeSettings}); returns them. */
export async function changeSettings(changes: SettingsChanges, call: WriteCall): Promise<Settings> {
  const { store, caller } = call;
  refuseUnless(mayChangeSettings(caller, changes), caller);
  const defined = Object.entries(changes).filter(([, value]) => value !== undefined);
  const next: Settings = { ...store.settings, ...Object.fromEntries(defined) };
  await store.mutate((tx) => tx.setSettings(next));
  // A longer horizon makes the repeating events without an end reach it now.
  if (changes.recurrenceHorizonMonths !== undefined) await extendAllSeries(store, () => call.now);
  return next;
}
