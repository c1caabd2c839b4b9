// `npm run dist:headless`: the headless edition for Linux x64 — one executable (Node's single executable
// application, the built web UI inside) and a .deb (Debian's dpkg-deb) with a menu entry, an icon and a launcher.
//   node scripts/dist-headless.mjs [--skip-web-build]
// Writes dist/headless/calendar-desk and dist/calendar-desk_<version>_amd64.deb.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const OUT = join(ROOT, 'dist', 'headless');
const RENDERER = join(ROOT, 'out', 'renderer');
/** The fuse Node's executable carries for single executable applications (Node's documentation). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function say(text) {
  console.log(`dist:headless: ${text}`);
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error('dist:headless builds the Linux x64 edition: run it on Linux x64.');
  process.exit(1);
}

if (!process.argv.includes('--skip-web-build')) {
  say('building the app and the web UI (electron-vite build)…');
  execFileSync(process.execPath, [require.resolve('electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

/**
 * The two places that load a package through createRequire (on first use, to start faster) become plain
 * requires the bundler can follow; the CLI's "run when invoked directly" is the headless entry's job. Each
 * replacement must happen: a changed source fails the build instead of an executable missing a module.
 */
function seaSources() {
  const edits = [
    { file: 'src/main/core/html.ts', from: "load('sanitize-html')", to: "require('sanitize-html')" },
    {
      file: 'src/main/cli/syncOutput.ts',
      from: "createRequire(import.meta.url)('cli-progress')",
      to: "require('cli-progress')",
    },
    { file: 'src/main/cli/index.ts', from: 'if (invokedDirectly) void main(process.argv);', to: '' },
  ];
  const seen = new Set();
  return {
    name: 'calendar-desk-sea-sources',
    transform(code, id) {
      const edit = edits.find((candidate) => id === join(ROOT, candidate.file));
      if (!edit) return null;
      if (!code.includes(edit.from)) throw new Error(`${edit.file} no longer contains ${edit.from}`);
      seen.add(edit.file);
      return { code: code.replace(edit.from, edit.to), map: null };
    },
    buildEnd() {
      const missing = edits.filter((edit) => !seen.has(edit.file)).map((edit) => edit.file);
      if (missing.length) throw new Error(`not bundled as expected: ${missing.join(', ')}`);
    },
  };
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
say('bundling the CLI into one CommonJS script…');
const script = join(OUT, 'calendar-desk.cjs');
await build({
  input: join(ROOT, 'src', 'main', 'headless.ts'),
  platform: 'node',
  logLevel: 'warn',
  plugins: [seaSources()],
  output: { file: script, format: 'cjs', inlineDynamicImports: true },
});

/** Every file of the built web UI, relative to it. */
function filesOf(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path, base) : [relative(base, path)];
  });
}
const webFiles = filesOf(RENDERER).sort();
if (!webFiles.includes('index.html'))
  throw new Error('out/renderer has no index.html: build the web UI first');
const manifest = join(OUT, 'renderer-manifest.json');
writeFileSync(manifest, JSON.stringify({ version: pkg.version, files: webFiles }));
const assets = { 'renderer/manifest.json': manifest };
for (const file of webFiles) assets[`renderer/${file}`] = join(RENDERER, file);

say(`packing the script and ${webFiles.length} web UI files into the executable…`);
const blob = join(OUT, 'sea-prep.blob');
const seaConfig = join(OUT, 'sea-config.json');
writeFileSync(
  seaConfig,
  JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true, assets }, null, 2),
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'inherit' });
const executable = join(OUT, 'calendar-desk');
copyFileSync(process.execPath, executable);
chmodSync(executable, 0o755);
execFileSync(
  process.execPath,
  [require.resolve('postject/dist/cli.js'), executable, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE],
  { stdio: 'inherit' },
);

say('making the .deb…');
const stage = join(OUT, 'deb');
const at = (...parts) => join(stage, ...parts);
const placeFile = (from, to, mode) => {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  chmodSync(to, mode);
};
placeFile(executable, at('usr', 'lib', 'calendar-desk', 'calendar-desk'), 0o755);
mkdirSync(at('usr', 'bin'), { recursive: true });
symlinkSync('../lib/calendar-desk/calendar-desk', at('usr', 'bin', 'calendar-desk'));
const linux = join(ROOT, 'resources', 'linux');
placeFile(join(linux, 'calendar-desk-launch'), at('usr', 'bin', 'calendar-desk-launch'), 0o755);
placeFile(
  join(linux, 'calendar-desk.desktop'),
  at('usr', 'share', 'applications', 'calendar-desk.desktop'),
  0o644,
);
placeFile(
  join(ROOT, 'resources', 'icon.svg'),
  at('usr', 'share', 'icons', 'hicolor', 'scalable', 'apps', 'calendar-desk.svg'),
  0o644,
);
placeFile(
  join(ROOT, 'resources', 'icon.png'),
  at('usr', 'share', 'icons', 'hicolor', '512x512', 'apps', 'calendar-desk.png'),
  0o644,
);
mkdirSync(at('usr', 'share', 'doc', 'calendar-desk'), { recursive: true });
cpSync(join(ROOT, 'README.md'), at('usr', 'share', 'doc', 'calendar-desk', 'README.md'));
const installedKb = Math.ceil(
  filesOf(stage).reduce((sum, file) => sum + statSync(join(stage, file)).size, 0) / 1024,
);
mkdirSync(at('DEBIAN'), { recursive: true });
writeFileSync(
  at('DEBIAN', 'control'),
  [
    'Package: calendar-desk',
    `Version: ${pkg.version}`,
    'Section: utils',
    'Priority: optional',
    'Architecture: amd64',
    'Recommends: xdg-utils',
    `Installed-Size: ${installedKb}`,
    'Maintainer: Calendar Desk volunteers <calendar-desk@users.noreply.github.com>',
    'Description: offline event calendar for small organisations (headless edition)',
    ' Calendar Desk keeps an event calendar on this computer and serves it to your',
    ' browser on 127.0.0.1. "Calendar Desk" in the menu starts it and opens it, signed in.',
    ' The calendar lives in ~/.local/share/calendar-desk and stays when the package is removed.',
    '',
  ].join('\n'),
);
const deb = join(ROOT, 'dist', `calendar-desk_${pkg.version}_amd64.deb`);
execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', stage, deb], { stdio: 'inherit' });
say(`done: ${relative(ROOT, executable)} and ${relative(ROOT, deb)}`);
