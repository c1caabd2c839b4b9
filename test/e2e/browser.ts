import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../cli/cliProcess';

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

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
