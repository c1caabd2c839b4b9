import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** The npm settings of whoever runs the tests (its cache, and its registry and certificates in its user config). */
export async function runnerNpmConfig(): Promise<{ cache: string; userconfig: string }> {
  const get = async (key: string) =>
    (await run('npm', ['config', 'get', key], { timeout: 60_000 })).stdout.trim();
  return { cache: await get('cache'), userconfig: await get('userconfig') };
}

/**
 * A clean user: a throwaway HOME, no CALENDAR_DESK_* and no npm_* variables inherited from `npm test`; npm takes
 * its packages from the runner's cache (or the registry, with the runner's registry settings).
 */
export function cleanUserEnv(
  home: string,
  npm: { cache: string; userconfig: string },
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(npm_|CALENDAR_DESK_|XDG_)/i.test(name)) env[name] = value;
  return {
    ...env,
    HOME: home,
    npm_config_cache: npm.cache,
    npm_config_userconfig: npm.userconfig,
    npm_config_update_notifier: 'false',
    ...extra,
  };
}
