import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { ensureBuilt, isolatedEnv, ROOT, startServe, type ServeProcess } from '../cli/cliProcess';

/** Debian's Chromium (installed by .ci/run); Playwright's own browser download is not possible here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const pendingRequests = new WeakMap<Page, Set<string>>();

/** Keeps the page's requests that have not ended yet, for `whatThePageShows`. */
function watchPending(page: Page): void {
  const pending = new Set<string>();
  pendingRequests.set(page, pending);
  page.on('request', (request) => pending.add(`${request.method()} ${request.url()}`));
  const ended = (request: { method(): string; url(): string }) =>
    pending.delete(`${request.method()} ${request.url()}`);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/**
 * What a failed test's page was at: its address, its requests still unanswered and the start of the text of
 * `part` (a CSS selector).
 * Printed into the test log (CI keeps no screenshots), so a timeout says where the page stood.
 */
export async function whatThePageShows(page: Page | undefined, part = 'main'): Promise<string> {
  if (!page) return 'no page';
  const text = await page
    .locator(part)
    .first()
    .innerText({ timeout: 2000 })
    .catch((error: Error) => `(text unreadable: ${error.message})`);
  const pending = [...(pendingRequests.get(page) ?? [])];
  return [
    `page: ${page.url()}`,
    `unanswered requests: ${pending.length ? pending.join(', ') : 'none'}`,
    `text: ${text.replace(/\s+/g, ' ').slice(0, 1500)}`,
  ].join('\n');
}

/** Where screenshots go: kept as test artifacts (git-ignored), to be looked at. */
export const ARTIFACTS = join(ROOT, 'test-results', 'e2e');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/** Everything the page reports as broken: console errors, uncaught exceptions, failed requests. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    // Chromium logs every 4xx fetch as "Failed to load resource": API refusals the app shows the user
    // (a validation error) are not faults; the response handler below still reports 5xx and missing files.
    const apiRefusal =
      /Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()) &&
      (message.location().url ?? '').includes('/wp-json/');
    if (message.type() === 'error' && !apiRefusal)
      problems.push(`console: ${message.text()} (${page.url()})`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message} (${page.url()})`));
  page.on('response', (response) => {
    // 4xx answers the test provokes on purpose (a validation error) are API answers, not page faults.
    if (response.status() >= 500 || (response.status() === 404 && !response.url().includes('/wp-json/'))) {
      problems.push(`http ${response.status()}: ${response.url()}`);
    }
  });
  return problems;
}

const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The page's global object, as the axe callbacks below use it (this file is type-checked without the DOM). */
declare const window: object;

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now: the accessibility check of every screen. */
export async function axeFindings(page: Page): Promise<string[]> {
  // Evaluated through DevTools (not a <script>), so the app's CSP stays as strict as users get it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (options: object) => Promise<{ violations: unknown[] }> } }
    ).axe;
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.help}): ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')}${violation.nodes.length > 3 ? ` and ${violation.nodes.length - 3} more` : ''}`,
    );
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** A `calendar-desk serve` of its own (a fresh home and data folder), and Chromium signed in to it. */
export interface E2eApp {
  home: string;
  serve: ServeProcess;
  /** `http://127.0.0.1:PORT`: the page's and the API's origin. */
  origin: string;
  /** The administrator's bearer token (for the test's own API calls; never in a browser's address). */
  token: string;
}

export interface SignedInBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** What the page reported as broken so far (see watchProblems). */
  problems: string[];
}

/**
 * Starts `serve` on a fresh data folder (`name` names the temporary home). `beforeStart` may put files into
 * the data folder first (e.g. the port the calendar last used).
 */
export async function startApp(
  name: string,
  args: string[] = [],
  beforeStart?: (dataDir: string) => Promise<void>,
): Promise<E2eApp> {
  await ensureBuilt();
  const home = await mkdtemp(join(tmpdir(), `calendar-desk-${name}-`));
  const dataDir = join(home, 'data');
  await beforeStart?.(dataDir);
  const serve = await startServe([...args, '--data', dataDir], isolatedEnv(home));
  const origin = /^https?:\/\/[^/]+/.exec(serve.webUi)![0];
  const token = (await readFile(serve.tokenFile, 'utf8')).trim();
  return { home, serve, origin, token };
}

/**
 * A fresh one-time sign-in link (`origin/#/signin?code=…`), asked of the server as its owner, as
 * `calendar-desk signin-link` does: the permanent token never goes into the browser.
 */
export async function freshSignInLink(origin: string, token: string): Promise<string> {
  const response = await fetch(`${origin}/wp-json/calendar-desk/v1/signin-codes`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  if (response.status !== 201)
    throw new Error(`no sign-in code: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { link: string }).link;
}

/** How a signed-in page is opened: its browser context, Playwright's wait, and what says the app is ready. */
export interface SignInOptions {
  context?: BrowserContextOptions;
  /** Playwright's default wait for each action, when the screens under test need longer. */
  timeout?: number;
  ready?: (page: Page) => Promise<unknown>;
}

/**
 * Where `locator` is once the page has settled: visible, and at the same place on two reads a frame apart.
 * A drag must start from there; FullCalendar lays a month's events out hidden first (to count what fits in a day)
 * and may draw them again once the range's events arrive, so a single `boundingBox()` can catch one mid-layout
 * (null, or a place the event leaves).
 */
export async function settledBox(
  locator: Locator,
  timeoutMs = 10_000,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const deadline = Date.now() + timeoutMs;
  let previous: Awaited<ReturnType<Locator['boundingBox']>> = null;
  for (;;) {
    await locator.waitFor({ state: 'visible', timeout: Math.max(1, deadline - Date.now()) });
    const box = await locator.boundingBox();
    if (
      box &&
      previous &&
      box.x === previous.x &&
      box.y === previous.y &&
      box.width === previous.width &&
      box.height === previous.height
    ) {
      return box;
    }
    if (Date.now() > deadline) throw new Error(`${String(locator)} never settled in ${timeoutMs} ms`);
    previous = box;
    await locator.page().waitForTimeout(50);
  }
}

/** Waits for the calendar's own heading (the screen signing in lands on). */
export const calendarShown = (page: Page) =>
  page.getByRole('heading', { name: 'Calendar', exact: true }).waitFor();

/**
 * A new page of `browser` (1440 × 900 in British English unless `options.context` says otherwise), signed in
 * through a one-time sign-in link; resolves once `ready` (the main navigation by default) is on the page.
 */
export async function signInPage(
  browser: Browser,
  app: Pick<E2eApp, 'origin' | 'token'>,
  options: SignInOptions = {},
): Promise<Omit<SignedInBrowser, 'browser'>> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: 'en-GB',
    ...options.context,
  });
  const page = await context.newPage();
  if (options.timeout) page.setDefaultTimeout(options.timeout);
  const problems = watchProblems(page);
  watchPending(page);
  await page.goto(await freshSignInLink(app.origin, app.token));
  // Signing in ends by going where it was asked (the calendar): wait for it, or it may undo the test's own navigation.
  await page.waitForURL((url) => !url.hash.startsWith('#/signin'));
  await (options.ready ?? ((signedIn: Page) => signedIn.getByRole('navigation').first().waitFor()))(page);
  return { context, page, problems };
}

/** Chromium of its own with a page signed in to the app (see signInPage). */
export async function signIn(app: E2eApp, options: SignInOptions = {}): Promise<SignedInBrowser> {
  const browser = await launchChromium();
  return { browser, ...(await signInPage(browser, app, options)) };
}

/**
 * A call of the app's REST API as its owner (the bearer token), as a test prepares or checks what the screens
 * show: `path` under `/wp-json/` (`cal/events/v1/events`), JSON in and out. An answer of 300 or more throws,
 * with the method, the path and what the server said.
 */
export async function callApi<T = { id: number }>(
  app: Pick<E2eApp, 'origin' | 'token'>,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<T> {
  const method = init.method ?? 'GET';
  const response = await fetch(`${app.origin}/wp-json/${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${app.token}`,
      ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  if (response.status >= 300)
    throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Goes to a screen by its link in the main navigation (folded into a menu button in narrow windows). */
export async function navigateTo(page: Page, label: string): Promise<void> {
  const link = page.getByRole('navigation').getByRole('link', { name: label, exact: true });
  if (!(await link.isVisible())) await page.getByTestId('menu-toggle').click();
  await link.click();
}

/** The path of the events API (`cal/events/v1/…`) under `/wp-json/`. */
export const EVENTS_API = 'cal/events/v1';

/** Closes the browser, stops `serve` and removes its home: whatever part of them was started. */
export async function stopApp(app: E2eApp | undefined, signedIn: SignedInBrowser | undefined): Promise<void> {
  await signedIn?.browser.close();
  if (app?.serve.child.exitCode === null) app.serve.child.kill('SIGTERM');
  await app?.serve.exited;
  if (app) await rm(app.home, { recursive: true, force: true });
}
