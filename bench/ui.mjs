#!/usr/bin/env node
// `npm run bench:ui`: how fast the calendar feels with a busy month (issue 16). Starts `calendar-desk serve` on a
// throwaway data folder, creates 300 events in the current month through the API, then in Debian's Chromium:
//   - month view: ms from navigation to the last event drawn, and the blocking time of long tasks on the way
//     (target: under 300 ms);
//   - list view: frame times while scrolling through the month's 300 events (target: p95 under 50 ms);
//   - the same loads side by side (issue 27): the app on that month, the app on next month's 10 events, and
//     the floor: FullCalendar alone (bench/floor, built with vite from the project's own packages) drawing
//     the same 300 events from memory with the same options, served by a tiny static server. Targets, as
//     ratios of medians in one run: app ≤ 1.5 × floor, and 300 events ≤ 1.25 × 10 events.
// Prints the numbers with the targets marked met / not met and writes bench/results/ui-latest.json.
// Speed depends on the machine and its load: never assert on it in tests.
/* global window, document, requestAnimationFrame -- the page.evaluate callbacks run in the browser */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { extname } from 'node:path';
import { build } from 'vite';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const ZONE = 'Europe/Rome';
const EVENTS = 300;
const RUNS = Number(process.env.BENCH_UI_RUNS ?? 5);
const TARGETS = { monthMs: 300, scrollP95Ms: 50, overFloor: 1.5, overTenEvents: 1.25 };
const FEW = 10;
const CONTENT_TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** A tiny static server of a folder (the floor page): the file asked for, or index.html. */
function serveFolder(folder) {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const file = join(folder, path === '/' ? 'index.html' : path.slice(1).replace(/\.\./g, ''));
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

/**
 * The main thread's top-level tasks of the page navigated to, from navigation to `untilMs` after it: the time
 * they took (busyMs) and the CPU time they got (cpuMs; less when other processes had the CPU).
 */
function mainThreadWork(traceEvents, untilMs) {
  const navigation = traceEvents
    .filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.includes('#/calendar'))
    .at(-1);
  const tasks = traceEvents
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.name === 'RunTask' &&
        e.pid === navigation.pid &&
        e.tid === navigation.tid &&
        e.ts >= navigation.ts &&
        e.ts < navigation.ts + untilMs * 1000,
    )
    .sort((a, b) => a.ts - b.ts);
  let busy = 0;
  let cpu = 0;
  let end = 0;
  for (const task of tasks) {
    if (task.ts < end) continue; // nested in the previous task
    busy += task.dur;
    cpu += task.tdur ?? 0;
    end = task.ts + task.dur;
  }
  return { busyMs: Math.round(busy / 1000), cpuMs: Math.round(cpu / 1000) };
}

const home = await mkdtemp(join(tmpdir(), 'calendar-desk-bench-ui-'));
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
delete env.CALENDAR_DESK_DATA;
const serve = spawn(
  process.execPath,
  [
    join(root, 'bin', 'calendar-desk.js'),
    'serve',
    '--port',
    '0',
    '--data',
    join(home, 'data'),
    '--timezone',
    ZONE,
  ],
  { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] },
);
let browser;
let floor;
try {
  const printed = await new Promise((resolve, reject) => {
    let out = '';
    serve.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Press Ctrl+C')) resolve(out);
    });
    serve.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready`)));
  });
  const field = (label) => new RegExp(`${label}:\\s+(\\S+)`).exec(printed)?.[1] ?? '';
  const origin = /^https?:\/\/[^/]+/.exec(field('Web UI'))[0];
  const token = (await readFile(field('Admin token'), 'utf8')).trim();

  // 300 events spread over the month, 10 a day, at different hours, with venues' worth of text in the title.
  const now = new Date();
  const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  const daysInMonth = new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate();
  const pad = (n) => String(n).padStart(2, '0');
  const localDate = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  for (let i = 0; i < EVENTS; i += 1) {
    const day = (i % daysInMonth) + 1;
    const hour = 8 + (i % 12);
    const response = await fetch(`${origin}/wp-json/cal/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: `Rehearsal ${i + 1}: choir and orchestra`,
        start_date: `${month}-${pad(day)} ${pad(hour)}:00:00`,
        end_date: `${month}-${pad(day)} ${pad(hour + 1)}:30:00`,
        status: 'publish',
      }),
    });
    if (!response.ok) throw new Error(`creating event ${i + 1}: ${response.status} ${await response.text()}`);
  }
  // Next month: 10 events, for the same app load on a quiet month.
  const next = new Date(now.getFullYear(), now.getMonth() + 1, 1);
  const nextMonth = `${next.getFullYear()}-${pad(next.getMonth() + 1)}`;
  for (let i = 0; i < FEW; i += 1) {
    const day = pad(1 + i * 2);
    const response = await fetch(`${origin}/wp-json/cal/events/v1/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: `Rehearsal ${i + 1}: choir and orchestra`,
        start_date: `${nextMonth}-${day} 18:00:00`,
        end_date: `${nextMonth}-${day} 19:30:00`,
        status: 'publish',
      }),
    });
    if (!response.ok) throw new Error(`creating event ${i + 1}: ${response.status} ${await response.text()}`);
  }

  // The floor: FullCalendar alone with this month's events in memory, as the calendar makes them.
  const floorDir = join(home, 'floor');
  await build({
    root: join(root, 'bench', 'floor'),
    configFile: false,
    logLevel: 'warn',
    build: { outDir: floorDir, emptyOutDir: true, target: 'esnext' },
  });
  const range = new URLSearchParams({
    status: 'any',
    show_hidden: 'true',
    // The weeks the month's grid shows, and more: what falls outside, FullCalendar leaves out.
    ends_after: localDate(new Date(now.getFullYear(), now.getMonth(), -7)),
    starts_before: localDate(new Date(now.getFullYear(), now.getMonth() + 1, 14)),
  });
  const listed = await fetch(`${origin}/wp-json/calendar-desk/v1/calendar?${range}`, {
    headers: { Authorization: `Bearer ${token}` },
  }).then((response) => response.json());
  const floorEvents = listed.events.map((event) => ({
    id: String(event.id),
    title: event.title,
    classNames: [`status-${event.status}`],
    allDay: false,
    start: `${event.utc_start_date.replace(' ', 'T')}Z`,
    end: `${event.utc_end_date.replace(' ', 'T')}Z`,
  }));
  await writeFile(
    join(floorDir, 'events.js'),
    `export const events = ${JSON.stringify(floorEvents)};\nexport const zone = ${JSON.stringify(ZONE)};\n` +
      `export const date = ${JSON.stringify(`${month}-15`)};\n`,
  );
  floor = await serveFolder(floorDir);

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-GB' });
  // The printed link's one-time code (valid for five minutes: the events above take seconds).
  await page.goto(field('Web UI'));
  await page.waitForSelector('.fc');

  /** Navigation to the page until the count of drawn events has not changed for 400 ms: when it last did. */
  const settledDrawing = () =>
    page.evaluate(
      () =>
        new Promise((resolve) => {
          let count = -1;
          let changedAt = 0;
          const tick = () => {
            const drawn = document.querySelectorAll('.fc-event, .fc-list-event').length;
            if (drawn !== count) {
              count = drawn;
              changedAt = performance.now();
            }
            if (count > 0 && performance.now() - changedAt > 400) resolve({ ms: changedAt, drawn: count });
            else requestAnimationFrame(tick);
          };
          tick();
        }),
    );
  const blockingTime = () =>
    page.evaluate(() => window.__longTasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0));

  // Long tasks are only reported to an observer registered before they happen.
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries())).observe({
      type: 'longtask',
      buffered: true,
    });
  });
  await page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('calendar-desk.preferences') ?? '{}');
    localStorage.setItem(
      'calendar-desk.preferences',
      JSON.stringify({ ...saved, calendarView: 'dayGridMonth' }),
    );
  });
  const month_ = [];
  for (let run = 0; run < RUNS; run += 1) {
    await page.goto('about:blank');
    const cdp =
      process.env.BENCH_UI_PROFILE && run === RUNS - 1 ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.goto(`${origin}/#/calendar`);
    const drawn = await settledDrawing();
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      await writeFile(process.env.BENCH_UI_PROFILE, JSON.stringify(profile));
    }
    if (process.env.BENCH_UI_DEBUG) {
      console.log(
        await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map((r) => `${Math.round(r.startTime)}-${Math.round(r.responseEnd)} ${r.name.slice(-60)}`)
            .concat(
              window.__longTasks.map((t) => `long ${Math.round(t.startTime)}+${Math.round(t.duration)}`),
            )
            .join('\n'),
        ),
      );
    }
    month_.push({
      ms: Math.round(drawn.ms),
      drawn: drawn.drawn,
      blockingMs: Math.round(await blockingTime()),
    });
  }

  // Side by side, alternating (the machine's load changes as it goes): the app on this month, the app on next
  // month's 10 events, FullCalendar alone on this month's events.
  const sideBySide = { app: [], fewEvents: [], floor: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, url] of [
      ['app', `${origin}/#/calendar?view=dayGridMonth&date=${month}-15`],
      ['fewEvents', `${origin}/#/calendar?view=dayGridMonth&date=${nextMonth}-15`],
      ['floor', `${floor.origin}/`],
    ]) {
      await page.goto('about:blank');
      await page.goto(url);
      sideBySide[name].push(Math.round((await settledDrawing()).ms));
    }
  }

  // The main thread's CPU time of the same two loads, traced, alternating: what the page itself works (the
  // load of the machine changes it much less than the wait).
  const cpu = { app: [], fewEvents: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, url] of [
      ['app', `${origin}/#/calendar?view=dayGridMonth&date=${month}-15`],
      ['fewEvents', `${origin}/#/calendar?view=dayGridMonth&date=${nextMonth}-15`],
    ]) {
      await page.goto('about:blank');
      await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
      await page.goto(url);
      const settled = await settledDrawing();
      cpu[name].push(
        mainThreadWork(JSON.parse(String(await browser.stopTracing())).traceEvents, settled.ms).cpuMs,
      );
    }
  }

  // One more load of the month, traced: how much of the wait the page's main thread spent working (CPU time of
  // its tasks, which the machine's load hardly changes) rather than waiting for the CPU, the network or the API.
  await page.goto('about:blank');
  await browser.startTracing(page, {
    categories: ['disabled-by-default-devtools.timeline', 'blink.user_timing'],
  });
  await page.goto(`${origin}/#/calendar`);
  const traced = await settledDrawing();
  const mainThread = mainThreadWork(JSON.parse(String(await browser.stopTracing())).traceEvents, traced.ms);

  // The list view of the month: scroll through it with the wheel and record every frame's duration.
  await page.keyboard.press('l');
  await page.waitForSelector('.fc-list-event');
  const frames = await page.evaluate(async () => {
    const scroller = document.querySelector('.fc-list .fc-scroller') ?? document.scrollingElement;
    const durations = [];
    let last = performance.now();
    for (let step = 0; step < 240; step += 1) {
      scroller.scrollTop += 60;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const now = performance.now();
      durations.push(now - last);
      last = now;
    }
    return { durations, scrollHeight: scroller.scrollHeight, reached: scroller.scrollTop };
  });
  const sorted = [...frames.durations].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)];
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  const result = {
    at: new Date().toISOString(),
    // The machine and how busy it was: the numbers mean little without them.
    machine: { cpus: cpus().length, loadAverage1m: Math.round(loadavg()[0] * 10) / 10 },
    events: EVENTS,
    month: {
      runs: month_,
      medianMs: median(month_.map((r) => r.ms)),
      medianBlockingMs: median(month_.map((r) => r.blockingMs)),
      tracedRun: {
        ms: Math.round(traced.ms),
        mainThreadCpuMs: mainThread.cpuMs,
        mainThreadBusyMs: mainThread.busyMs,
      },
    },
    sideBySide: {
      runs: sideBySide,
      medianMs: Object.fromEntries(Object.entries(sideBySide).map(([name, runs]) => [name, median(runs)])),
      appOverFloor: Math.round((median(sideBySide.app) / median(sideBySide.floor)) * 100) / 100,
      appOverTenEvents: Math.round((median(sideBySide.app) / median(sideBySide.fewEvents)) * 100) / 100,
      loadAverage1mAfter: Math.round(loadavg()[0] * 10) / 10,
      mainThreadCpu: {
        runs: cpu,
        medianMs: { app: median(cpu.app), fewEvents: median(cpu.fewEvents) },
        appOverTenEvents: Math.round((median(cpu.app) / median(cpu.fewEvents)) * 100) / 100,
      },
    },
    listScroll: {
      frames: sorted.length,
      p95Ms: Math.round(p95 * 10) / 10,
      maxMs: Math.round(sorted.at(-1) * 10) / 10,
      scrolledPx: frames.reached,
    },
  };
  const mark = (ok) => (ok ? 'met' : 'NOT met');
  console.log(
    `Month view, ${EVENTS} events: ${result.month.medianMs} ms to the last event drawn (median of ${RUNS}), ` +
      `${result.month.medianBlockingMs} ms blocking — target < ${TARGETS.monthMs} ms: ${mark(result.month.medianMs < TARGETS.monthMs)}`,
  );
  console.log(
    `  of which the page's main thread worked ${mainThread.cpuMs} ms of CPU (busy ${mainThread.busyMs} ms, ` +
      `in a traced run of ${Math.round(traced.ms)} ms)`,
  );
  console.log(
    `List view scrolling: p95 frame ${result.listScroll.p95Ms} ms over ${result.listScroll.frames} frames ` +
      `(max ${result.listScroll.maxMs} ms) — target < ${TARGETS.scrollP95Ms} ms: ${mark(result.listScroll.p95Ms < TARGETS.scrollP95Ms)}`,
  );
  console.log(
    `Side by side (medians of ${RUNS}): app ${result.sideBySide.medianMs.app} ms, app on ${FEW} events ` +
      `${result.sideBySide.medianMs.fewEvents} ms, FullCalendar alone ${result.sideBySide.medianMs.floor} ms — ` +
      `app / floor ${result.sideBySide.appOverFloor} (target ≤ ${TARGETS.overFloor}: ` +
      `${mark(result.sideBySide.appOverFloor <= TARGETS.overFloor)}), 300 / ${FEW} events ` +
      `${result.sideBySide.appOverTenEvents} (target ≤ ${TARGETS.overTenEvents}: ` +
      `${mark(result.sideBySide.appOverTenEvents <= TARGETS.overTenEvents)}); load ${result.machine.loadAverage1m} ` +
      `before, ${result.sideBySide.loadAverage1mAfter} after`,
  );
  console.log(
    `  main thread's CPU time (medians of ${RUNS}, traced): app ${result.sideBySide.mainThreadCpu.medianMs.app} ms, ` +
      `app on ${FEW} events ${result.sideBySide.mainThreadCpu.medianMs.fewEvents} ms — 300 / ${FEW} events ` +
      `${result.sideBySide.mainThreadCpu.appOverTenEvents}`,
  );
  await writeFile(join(root, 'bench', 'results', 'ui-latest.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await browser?.close();
  floor?.server.close();
  serve.kill('SIGTERM');
  await new Promise((resolve) => (serve.exitCode === null ? serve.once('exit', resolve) : resolve()));
  await rm(home, { recursive: true, force: true });
}
