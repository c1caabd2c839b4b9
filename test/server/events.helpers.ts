import { expect } from 'vitest';
import { DateTime } from 'luxon';
import { eventResponseSchema } from '../../src/shared/schemas/records';
import type { ApiResult, TestServer } from '../helpers/server';

/** Shared helpers of the `events.*` integration tests. */

type Auth = Record<string, string>;

/** Every event record the API returns must match the published (strict) response schema. */
export function expectEventRecord(record: unknown) {
  const parsed = eventResponseSchema.safeParse(record);
  if (!parsed.success) {
    throw new Error(
      `event record does not match eventResponseSchema: ${JSON.stringify(parsed.error.issues, null, 1)}`,
    );
  }
  return parsed.data;
}

/** Asserts an archive response is a 200 whose every event parses, and returns the ids in order. */
export function archiveIds(result: ApiResult): number[] {
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  for (const event of result.body.events) expectEventRecord(event);
  return result.body.events.map((event: { id: number }) => event.id);
}

/** Creates an event (201 expected) and returns the parsed record. */
export async function createEvent(
  server: TestServer,
  body: Record<string, unknown>,
  auth: Auth = server.admin,
) {
  const result = await server.api('events', { method: 'POST', auth, json: body });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  expectEventRecord(result.body);
  return result.body;
}

/** An event body at a fixed local wall clock (`YYYY-MM-DD HH:mm:ss`). */
export function at(
  title: string,
  start: string | number,
  end: string | number,
  extra: Record<string, unknown> = {},
) {
  return { title, start_date: start, end_date: end, ...extra };
}

/** `YYYY-MM-DD` of today + `days` in `zone`. */
export function dayFromNow(days: number, zone = 'UTC'): string {
  return DateTime.now().setZone(zone).plus({ days }).toFormat('yyyy-MM-dd');
}

/** The reference's error payload (REFERENCE §1.3). */
export function expectError(result: ApiResult, status: number, code: string, message?: string) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.code).toBe(code);
  expect(result.body.data.status).toBe(status);
  if (message !== undefined) expect(result.body.message).toBe(message);
}

/** `rest_invalid_param` naming exactly these parameters. */
export function expectInvalidParams(result: ApiResult, ...params: string[]) {
  expectError(result, 400, 'rest_invalid_param', `Invalid parameter(s): ${params.join(', ')}`);
  expect(Object.keys(result.body.data.params)).toEqual(params);
}

/** Query string from pairs (values are URL-encoded). */
export function query(params: Record<string, string | number | boolean>): string {
  return new URLSearchParams(
    Object.entries(params).map(([key, value]) => [key, String(value)] as [string, string]),
  ).toString();
}
