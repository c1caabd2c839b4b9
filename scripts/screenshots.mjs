// `npm run screenshots`: the README's pictures. Starts `serve` on a throwaway data folder, fills it with a
// realistic week through the REST API (as any local tool would), and photographs the main screens with
// Debian's Chromium. Needs a build (`npm run build`) and /usr/bin/chromium.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { chromium } from 'playwright-core';

const OUT = 'docs/screenshots';
const ZONE = 'Europe/Rome';
const home = await mkdtemp(join(tmpdir(), 'calendar-desk-shots-'));
const serve = spawn(
  process.execPath,
  ['bin/calendar-desk.js', 'serve', '--port', '0', '--data', join(home, 'data'), '--timezone', ZONE],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const printed = await new Promise((resolve) => {
  let text = '';
  serve.stdout.on('data', (chunk) => {
    text += chunk;
    if (text.includes('Press Ctrl+C')) resolve(text);
  });
});
const origin = /Web UI:\s+(https?:\/\/[^/\s]+)/.exec(printed)[1];
const tokenFile = /Admin token:\s+(\S+)/.exec(printed)[1];
const token = (await readFile(tokenFile, 'utf8')).trim();

async function post(path, body) {
  const response = await fetch(`${origin}/wp-json/cal/events/v1/${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const hall = await post('venues', {
  venue: 'Teatro Verdi',
  city: 'Trieste',
  country: 'Italy',
  address: 'Riva Tre Novembre 1',
});
const park = await post('venues', { venue: 'Parco di Miramare', city: 'Trieste', country: 'Italy' });
const library = await post('venues', { venue: 'Biblioteca Civica', city: 'Trieste', country: 'Italy' });
const anna = await post('organizers', { organizer: 'Anna Rossi', email: 'anna@example.org' });
const club = await post('organizers', {
  organizer: 'Trieste Book Club',
  website: 'https://example.org/books',
});
const monday = DateTime.now().setZone(ZONE).startOf('week');
const at = (day, time) => `${monday.plus({ days: day }).toISODate()} ${time}:00`;
const events = [
  ['Orchestra rehearsal', 0, '18:00', '20:30', hall.id, [anna.id], ['Music']],
  ['Reading circle', 1, '17:30', '19:00', library.id, [club.id], ['Books']],
  ['Jazz night', 2, '21:00', '23:30', hall.id, [anna.id], ['Music']],
  ['Guided walk', 3, '10:00', '12:00', park.id, [], ['Outdoors']],
  ['Poetry slam', 3, '19:00', '21:00', library.id, [club.id], ['Books']],
  ['Summer concert', 4, '20:00', '22:00', park.id, [anna.id], ['Music', 'Outdoors']],
  ['Family picnic', 5, '12:00', '16:00', park.id, [], ['Outdoors']],
  ['Chamber music matinée', 6, '11:00', '12:30', hall.id, [anna.id], ['Music']],
  ['Board meeting', 8, '09:00', '10:30', library.id, [], []],
  ['Film club', 10, '20:30', '22:30', library.id, [club.id], []],
];
for (const [title, day, start, end, venue, organizer, categories] of events) {
  await post('events', {
    title,
    start_date: at(day, start),
    end_date: at(day, end),
    venue,
    organizer,
    categories,
    cost: '10',
  });
}
await post('events', {
  title: 'Book fair',
  all_day: true,
  start_date: at(11, '00:00'),
  end_date: at(13, '23:59'),
  venue: library.id,
  categories: ['Books'],
});
await post('events', {
  title: 'Draft: autumn season',
  start_date: at(9, '18:00'),
  end_date: at(9, '19:00'),
  status: 'draft',
});

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
page.setDefaultTimeout(15_000);
const shot = async (name) => {
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`${OUT}/${name}.png`);
};
// The printed link carries a one-time code (valid for five minutes), never the token.
await page.goto(/Web UI:\s+(\S+)/.exec(printed)[1]);
await page.locator('.fc-event').first().waitFor();
// The first-run "Share this calendar" invitation is put away: the pictures show the calendar itself.
await page.getByTestId('share-invite-later').click();
await page.getByTestId('share-invite').waitFor({ state: 'detached' });
await shot('month');
await page.locator('.fc-timeGridWeek-button').click();
await page.locator('.fc-timegrid-event').first().waitFor();
await shot('week');
await page.locator('.fc-timegrid-event', { hasText: 'Summer concert' }).click();
await page.getByRole('heading', { name: 'Edit event' }).waitFor();
await shot('editor');
await page.keyboard.press('Escape');
await page.getByRole('navigation').getByRole('link', { name: 'Venues', exact: true }).click();
await page.locator('table').waitFor();
await shot('venues');
await page.getByRole('navigation').getByRole('link', { name: 'Settings', exact: true }).click();
await page.getByTestId('ui-theme').selectOption('dark');
await page.getByTestId('ui-language').selectOption('it');
await page.getByRole('navigation').getByRole('link', { name: 'Calendario', exact: true }).click();
await page.locator('.fc-event').first().waitFor();
await shot('dark-italian');
await browser.close();
serve.kill('SIGTERM');
await new Promise((resolve) => serve.on('close', resolve));
await rm(home, { recursive: true, force: true });
