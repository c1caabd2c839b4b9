import { readdirSync, readFileSync } from 'node:fs';

/**
 * The recorded exchanges with the original (test/fixtures/original, see its README): part of the repository, so
 * the tests that compare with the original run in every clone.
 */
export const ORIGINAL_SAMPLES = new URL('../fixtures/original/', import.meta.url);

type Json = Record<string, unknown>;

/** The recorded files, `01-namespace-root.http` … in order. */
export const sampleFiles = (): string[] =>
  readdirSync(ORIGINAL_SAMPLES)
    .filter((file) => file.endsWith('.http'))
    .sort();

/** The JSON body of a recorded response (undefined where the response has none, e.g. a 204). */
export function sampleResponseBody(file: string): Json | undefined {
  const text = readFileSync(new URL(file, ORIGINAL_SAMPLES), 'utf8');
  const response = text.slice(text.indexOf('### RESPONSE'));
  const start = response.indexOf('\n{');
  return start < 0 ? undefined : (JSON.parse(response.slice(start + 1)) as Json);
}
