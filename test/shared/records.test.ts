import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it as test } from 'vitest';
import { z } from 'zod';
import {
  categoryArchiveSchema,
  errorSchema,
  eventArchiveSchema,
  eventResponseSchema,
  organizerArchiveSchema,
  organizerResponseSchema,
  tagArchiveSchema,
  termResponseSchema,
  venueArchiveSchema,
  venueResponseSchema,
} from '../../src/shared/schemas/records';
import { buildLinks } from '../../src/main/server/links';
import { namespaceRoutes } from '../../src/main/server/routes/index';
import { openApiDocument } from '../../src/main/server/routes/discovery';
import { sampleFiles, sampleResponseBody } from '../helpers/originalSamples';

/**
 * The record schemas (src/shared/schemas/records.ts) are what /doc publishes and what the tests hold real
 * responses to. Here: they convert to JSON Schema without loss, and they describe the original's records (the
 * recorded samples) once our documented additions (`language` everywhere, `ticketed` on events) are added.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- sample bodies are walked generically
type Json = any;

const REGISTERED = [
  'DateDetails',
  'Image',
  'CostDetails',
  'EmbeddedTerm',
  'Term',
  'Venue',
  'Organizer',
  'Event',
  'EventArchive',
  'VenueArchive',
  'OrganizerArchive',
  'CategoryArchive',
  'TagArchive',
  'Error',
];

const BY_ID: Record<string, z.ZodType> = {
  Event: eventResponseSchema,
  Venue: venueResponseSchema,
  Organizer: organizerResponseSchema,
  Term: termResponseSchema,
  EventArchive: eventArchiveSchema,
  VenueArchive: venueArchiveSchema,
  OrganizerArchive: organizerArchiveSchema,
  CategoryArchive: categoryArchiveSchema,
  TagArchive: tagArchiveSchema,
  Error: errorSchema,
};

/** The components of the document /doc serves, compiled with a JSON Schema 2020-12 validator. */
function documentValidators() {
  const document = openApiDocument(namespaceRoutes(), buildLinks('http://127.0.0.1:8787', null), 'en');
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // The documents' only named format (`uid`); zod also writes its pattern, which is what checks it here.
  ajv.addFormat('uuid', true);
  const id = 'https://calendar-desk.invalid/components';
  ajv.addSchema({
    $id: id,
    $defs: JSON.parse(
      JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'),
    ),
  });
  return (name: string) => ajv.getSchema(`${id}#/$defs/${name}`)!;
}

describe('record schemas', () => {
  test('every record schema is registered with its id, in this order', () => {
    const { schemas } = z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12' }) as {
      schemas: Record<string, unknown>;
    };
    // Other answers (SiteSettings…) register when their modules are first imported: where they fall depends on
    // what this test process imported before (the fast tier shares modules between files), so only the
    // records' own order is checked.
    expect(Object.keys(schemas).filter((id) => REGISTERED.includes(id))).toEqual(REGISTERED);
  });

  test('they convert to JSON Schema without unrepresentable parts', () => {
    expect(() =>
      z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', unrepresentable: 'throw' }),
    ).not.toThrow();
  });

  test('records are strict: the published JSON Schemas forbid unknown keys', () => {
    const validator = documentValidators();
    for (const name of REGISTERED) {
      const schema = validator(name).schema as Json;
      expect(schema.additionalProperties, name).toBe(false);
    }
  });
});

/**
 * Our additions to the original's records (CONTRACT §2): `language` on every record and term, `ticketed`, and on
 * events their series (`recurrence`, `recurrence_id`: issue 13).
 */
function withOurAdditions(value: Json): Json {
  if (Array.isArray(value)) return value.map(withOurAdditions);
  if (value === null || typeof value !== 'object') return value;
  const record: Json = Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === 'json_ld' ? inner : withOurAdditions(inner)]),
  );
  if ('global_id' in record || ('taxonomy' in record && 'slug' in record)) {
    record.language = 'en';
    record.uid = '5b3f0a52-51c1-4c1e-9d0c-3c2f8f1b6a10';
  }
  if ('start_date_details' in record) {
    record.ticketed = false;
    record.recurrence = [];
    record.recurrence_id = null;
  }
  return record;
}

function kindOf(body: Json): string | undefined {
  if (body.code) return 'Error';
  if (body.events) return 'EventArchive';
  if (body.venues) return 'VenueArchive';
  if (body.organizers) return 'OrganizerArchive';
  if (body.start_date) return 'Event';
  if (body.categories && body.rest_url) return 'CategoryArchive';
  if (body.tags && body.rest_url) return 'TagArchive';
  if (body.global_id && body.venue !== undefined) return 'Venue';
  if (body.global_id && body.organizer !== undefined) return 'Organizer';
  if (body.taxonomy) return 'Term';
  return undefined;
}

/** Response bodies of the recorded exchanges with the original, by file. */
function sampleBodies(): Array<[string, Json]> {
  return sampleFiles().flatMap((file) => {
    const body = sampleResponseBody(file);
    return body ? [[file, body] as [string, Json]] : [];
  });
}

describe('the original’s recorded records (test/fixtures/original)', () => {
  test('every record, archive and error parses with our strict schemas, once our additions are in', () => {
    const validator = documentValidators();
    const checked: string[] = [];
    for (const [file, body] of sampleBodies()) {
      const kind = kindOf(body);
      if (!kind) continue; // the namespace index and /doc
      const ours = withOurAdditions(body);
      const parsed = BY_ID[kind].safeParse(ours);
      expect(parsed.success ? [] : parsed.error.issues, `${file} as ${kind}`).toEqual([]);
      const validate = validator(kind);
      expect(validate(ours) ? [] : validate.errors, `${file} as ${kind} (JSON Schema)`).toEqual([]);
      checked.push(kind);
    }
    expect(new Set(checked)).toEqual(new Set(Object.keys(BY_ID)));
  });

  test('without our additions they do not (language, ticketed, uid and the series fields are required)', () => {
    const single = sampleBodies().find(([file]) => file.startsWith('10-'))![1];
    const issues = eventResponseSchema.safeParse(single).error!.issues.map((issue) => issue.path.join('.'));
    expect(issues).toEqual(
      expect.arrayContaining(['language', 'ticketed', 'uid', 'recurrence', 'recurrence_id']),
    );
  });
});
