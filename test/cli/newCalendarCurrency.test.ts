import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, startServe } from './cliProcess';

let home: string;
beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), 'calendar-desk-currency-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

interface SiteCurrency {
  currency_symbol: string;
  currency_position: string;
  currency_code: string;
}

/** The default currency `serve` answers for `folder` on a machine whose environment is `locale`. */
async function currencyOf(folder: string, locale: Record<string, string>): Promise<SiteCurrency> {
  const serve = await startServe(['--port', '0', '--data', join(home, folder)], isolatedEnv(home, locale));
  try {
    const token = (await readFile(serve.tokenFile, 'utf8')).trim();
    const response = await fetch(
      `${serve.apiRoot.replace(/cal\/events\/v1\/?$/, '')}calendar-desk/v1/settings`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    const { currency_symbol, currency_position, currency_code } = (await response.json()) as SiteCurrency;
    return { currency_symbol, currency_position, currency_code };
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}

it('a new calendar takes the currency of the machine locale (LC_ALL, LC_MONETARY, LANG); an existing one keeps its own', async () => {
  expect(await currencyOf('prague', { LANG: 'cs_CZ.UTF-8' })).toEqual({
    currency_symbol: 'Kč',
    currency_position: 'postfix',
    currency_code: 'CZK',
  });
  expect(await currencyOf('berlin', { LANG: 'en_GB.UTF-8', LC_ALL: 'de_DE.UTF-8' })).toEqual({
    currency_symbol: '€',
    currency_position: 'postfix',
    currency_code: 'EUR',
  });
  // The Czech calendar opened later on a German machine: still crowns.
  expect((await currencyOf('prague', { LANG: 'de_DE.UTF-8' })).currency_code).toBe('CZK');
  // A machine without a country ("C"): the original's defaults.
  expect(await currencyOf('plain', { LANG: 'C.UTF-8' })).toEqual({
    currency_symbol: '$',
    currency_position: 'prefix',
    currency_code: 'USD',
  });
});
