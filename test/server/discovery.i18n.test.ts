import { describe, expect, it as test } from 'vitest';
import { namespaceRoutes } from '../../src/main/server/routes/index';
import { linkedPostMergeRoutes } from '../../src/main/server/routes/linkedPostMerge';
import { DISCOVERY_DESCRIPTIONS } from '../../src/main/server/routes/discovery';
import type { ArgDef } from '../../src/main/server/args/define';
import { translateDescription } from '../../src/main/server/i18n/descriptions';
import { it } from '../../src/main/server/i18n/it';
import { pl } from '../../src/main/server/i18n/pl';

/**
 * Every human-readable argument text the namespace index and /doc show must exist in Italian and Polish
 * (CONTRACT §1: the language roots differ only in these texts). Walking the real route table means a new
 * argument cannot be added without its translations.
 */

/** English description → where it is used (route, methods, argument). */
function describedArguments(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (text: string, where: string) => {
    if (!text) return; // the namespace index's own `namespace`/`context` have no description (as in WordPress)
    found.set(text, [...(found.get(text) ?? []), where]);
  };
  // The admin namespace's /doc lists the merge routes, in the request's language too.
  for (const route of [...namespaceRoutes(), ...linkedPostMergeRoutes]) {
    for (const endpoint of route.endpoints) {
      for (const [name, def] of Object.entries<ArgDef>(endpoint.args)) {
        add(def.meta.description, `${endpoint.methods.join(',')} ${route.pattern || '/'} ${name}`);
      }
    }
  }
  for (const text of DISCOVERY_DESCRIPTIONS) add(text, 'discovery.ts');
  return found;
}

const DICTIONARIES = { it, pl } as const;
const described = describedArguments();

/** Names of parameters, wildcards and quoted literals a description mentions: they must survive translation. */
const LITERALS = /[a-z]+(?:_[a-z*]+)+|"[^"]*"/g;

describe('argument descriptions are translated', () => {
  test('the route table has descriptions to translate', () => {
    expect(described.size).toBeGreaterThan(100);
  });

  for (const [language, dictionary] of Object.entries(DICTIONARIES)) {
    describe(language, () => {
      test('every description of every argument has a translation', () => {
        const missing = [...described.entries()]
          .filter(([english]) => !dictionary[english]?.trim())
          .map(([english, where]) => `${JSON.stringify(english)} (${where[0]})`);
        expect(missing, `untranslated into ${language}`).toEqual([]);
      });

      test('translations are real translations that keep the literal names', () => {
        for (const english of described.keys()) {
          const translated = dictionary[english];
          if (!translated) continue;
          expect(translated, english).not.toBe(english);
          expect(translated.trim(), english).toBe(translated);
          for (const literal of english.match(LITERALS) ?? []) expect(translated, english).toContain(literal);
        }
      });

      test('no stale entries (every key is a description in use)', () => {
        const stale = Object.keys(dictionary).filter((english) => !described.has(english));
        expect(stale).toEqual([]);
      });

      test('translateDescription uses the dictionary, English stays English', () => {
        for (const english of described.keys()) {
          expect(translateDescription(english, language as 'it' | 'pl')).toBe(dictionary[english]);
          expect(translateDescription(english, 'en')).toBe(english);
        }
        expect(translateDescription('Some text nobody translated', language as 'it' | 'pl')).toBe(
          'Some text nobody translated',
        );
      });
    });
  }
});
