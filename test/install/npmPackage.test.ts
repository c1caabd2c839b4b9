import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ROOT, startServeOf } from '../cli/cliProcess';
import { cleanUserEnv, run, runnerNpmConfig } from './npmEnv';

// What a volunteer does with the npm package: `npm pack`, then `npm install -g` of the tarball into a fresh prefix
// with a fresh HOME, then `calendar-desk serve` and a browser on the web UI.
let work: string;
let prefix: string;
let home: string;
let tarball: string;
let env: NodeJS.ProcessEnv;
const installed = () => join(prefix, 'lib', 'node_modules', 'calendar-desk');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'calendar-desk-npm-'));
  prefix = join(work, 'prefix');
  home = join(work, 'home');
  await mkdir(home);
  const npm = await runnerNpmConfig();
  env = cleanUserEnv(home, npm, {
    npm_config_prefix: prefix,
    PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`,
  });
  // `npm pack` runs `prepare` (electron-vite build); built here first, so other test files never see out/ half
  // rebuilt, and packed without running it again.
  await ensureBuilt();
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: ROOT,
    env,
    timeout: 120_000,
  });
  tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
  await run('npm', ['install', '--global', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: home,
    env,
    timeout: 300_000,
  });
}, 480_000);
afterAll(() => rm(work, { recursive: true, force: true }));

it('installs the command, the built app and the web UI, with the runtime dependencies only', async () => {
  expect(existsSync(join(prefix, 'bin', 'calendar-desk'))).toBe(true);
  expect(existsSync(join(installed(), 'out', 'main', 'cli.js'))).toBe(true);
  expect(existsSync(join(installed(), 'out', 'renderer', 'index.html'))).toBe(true);
  // No sources, tests or dev tooling in the package, and none of the dev dependencies installed with it.
  expect((await readdir(installed())).sort()).toEqual(
    ['README.md', 'bin', 'node_modules', 'out', 'package.json'].sort(),
  );
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  expect(Object.keys(manifest.dependencies)).not.toContain('electron');
  const modules = await readdir(join(installed(), 'node_modules'));
  for (const dev of ['electron', 'electron-vite', 'vite', 'vue', 'vitest', 'typescript', 'electron-builder'])
    expect(modules).not.toContain(dev);
});

it('`calendar-desk serve` runs from the install on the default data folder: the API and the web UI answer', async () => {
  const serve = await startServeOf([join(prefix, 'bin', 'calendar-desk')], ['--port', '0'], env, home);
  try {
    // The platform's data folder in the new HOME.
    expect(serve.stdout).toContain(`Data folder: ${join(home, '.local', 'share', 'calendar-desk')}`);
    const api = await fetch(serve.apiRoot);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { namespace: string }).namespace).toBe('cal/events/v1');
    const events = await fetch(`${serve.apiRoot}/events`);
    expect(events.status).toBe(200);

    const page = await fetch(serve.webUi);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Calendar Desk</title>');
    // The page's script is served from the package too.
    const script = /<script type="module" crossorigin src="\.\/([^"]+)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const asset = await fetch(new URL(script!, serve.webUi));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
  } finally {
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  }
});

it('`npx calendar-desk` prints the help', async () => {
  const result = await run('npx', ['calendar-desk'], { cwd: home, env, timeout: 60_000 }).catch(
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
  const output = `${result.stdout}${result.stderr}`;
  expect(output).toContain('Usage: calendar-desk [options] [command]');
  expect(output).toContain('serve [options]');
});
