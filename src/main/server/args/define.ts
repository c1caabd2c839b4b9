import { z } from 'zod';
import { invalidParams, missingParams } from '../errors';
import type { CalendarStore } from '../../store/store';
import type { MaybeCaller } from '../../core/capabilities';

/** What a store-aware check may look at. */
export interface CheckContext {
  store: CalendarStore;
  caller: MaybeCaller;
  /** All raw arguments of the request (some checks depend on others). */
  raw: Record<string, unknown>;
}

/** `true` = valid; `false` = "Invalid parameter."; a string = that message. */
export type CheckResult = boolean | string;

/** How an argument is shown in the namespace index and in /doc. */
export interface ArgMeta {
  description: string;
  /** WordPress' `type` keyword as the index shows it; omitted for untyped args. */
  type?: 'integer' | 'boolean' | 'string' | 'number' | 'array' | 'object';
  /** `items` keyword for list args. */
  items?: { type: string };
  format?: string;
  /** Where the argument travels, for /doc. */
  in?: 'path' | 'query' | 'body';
  required?: boolean;
  /** Shown as the `default` in the index and applied when the argument is absent (unless `applyDefault` is false). */
  default?: unknown; // a value, or a function that gives it
  applyDefault?: boolean;
  /** Extension arguments of ours (not in the reference). */
  extension?: boolean;
}

export interface ArgDef<S extends z.ZodType = z.ZodType> {
  schema: S;
  meta: ArgMeta;
  /** Method syntax on purpose: a spec may hold a def whose schema was swapped (`{ ...pageArg(), schema }`). */
  check?(value: z.output<S>, context: CheckContext): CheckResult;
}

export type ArgSpec = Record<string, ArgDef>;

/** Parsed arguments: each present (or defaulted) argument with its coerced value. */
export type ArgValues<Spec extends ArgSpec> = { [K in keyof Spec]?: z.output<Spec[K]['schema']> };

export function arg<S extends z.ZodType>(
  schema: S,
  meta: ArgMeta,
  check?: (value: z.output<S>, context: CheckContext) => CheckResult,
): ArgDef<S> {
  return { schema, meta, check };
}

/** Makes every argument of a spec optional (WordPress' EDIT args = CREATE args with `required` forced off). */
export function optionalAll<Spec extends ArgSpec>(spec: Spec): Spec {
  return Object.fromEntries(
    Object.entries(spec).map(([name, def]) => [name, { ...def, meta: { ...def.meta, required: false } }]),
  ) as Spec;
}

export function defaultOf(meta: ArgMeta): unknown {
  return typeof meta.default === 'function' ? (meta.default as () => unknown)() : meta.default;
}

function describeIssue(name: string, issue: z.core.$ZodIssue | undefined): string {
  const message = issue?.message ?? 'Invalid parameter.';
  // zod's own generic messages are not WordPress': keep ours (they contain %s or are WP's text).
  if (message.includes('%s')) return message.replace('%s', name);
  if (message === 'Invalid parameter.' || issue?.code === 'custom') return message;
  return 'Invalid parameter.';
}

/** A spec's arguments and its required ones, listed once per spec (specs are built once, at start). */
const shapes = new WeakMap<ArgSpec, { entries: [string, ArgDef][]; required: string[] }>();
function shapeOf(spec: ArgSpec): { entries: [string, ArgDef][]; required: string[] } {
  let shape = shapes.get(spec);
  if (!shape) {
    const entries = Object.entries(spec);
    shape = { entries, required: entries.filter(([, def]) => def.meta.required).map(([name]) => name) };
    shapes.set(spec, shape);
  }
  return shape;
}

/**
 * Validates request arguments the WordPress way (REFERENCE §1.1): defaults, then missing required arguments
 * (`rest_missing_callback_param`), then type coercion and validators on every non-null argument
 * (`rest_invalid_param` with a message per argument). Arguments not declared in the spec are ignored.
 */
export function validateArgs<Spec extends ArgSpec>(
  spec: Spec,
  raw: Record<string, unknown>,
  context: Omit<CheckContext, 'raw'>,
): ArgValues<Spec> {
  const values: Record<string, unknown> = {};
  const present: Record<string, unknown> = {};
  const { entries, required } = shapeOf(spec);
  for (const [name, def] of entries) {
    if (raw[name] !== undefined && raw[name] !== null) present[name] = raw[name];
    // A JSON null clears a field where the schema accepts it (true PATCH); elsewhere it means "not sent".
    else if (raw[name] === null && def.schema.safeParse(null).success) present[name] = null;
    else if (def.meta.default !== undefined && def.meta.default !== null && def.meta.applyDefault !== false) {
      present[name] = defaultOf(def.meta);
    }
  }
  const missing = required.filter((name) => present[name] === undefined || present[name] === null);
  if (missing.length > 0) throw missingParams(missing);

  const invalid: Record<string, string> = {};
  const checkContext: CheckContext = { ...context, raw };
  for (const [name, value] of Object.entries(present)) {
    const def = spec[name];
    const parsed = def!.schema.safeParse(value);
    if (!parsed.success) {
      // WordPress runs an argument's validator before its type check: validated arguments say only that.
      invalid[name] = def!.check ? 'Invalid parameter.' : describeIssue(name, parsed.error.issues[0]);
      continue;
    }
    if (def!.check) {
      const verdict = def!.check(parsed.data, checkContext);
      if (verdict !== true) {
        invalid[name] = typeof verdict === 'string' ? verdict : 'Invalid parameter.';
        continue;
      }
    }
    values[name] = parsed.data;
  }
  if (Object.keys(invalid).length > 0) throw invalidParams(invalid);
  return values as ArgValues<Spec>;
}
