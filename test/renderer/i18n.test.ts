import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createAppI18n, MESSAGES } from '../../src/renderer/src/i18n';
import { ROOT } from '../cli/cliProcess';
import { browserLanguage, INTERFACE_LANGUAGES } from '../../src/renderer/src/i18n/browserLanguage';
import { LANGUAGES } from '../../src/shared/enums';

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') keys.set(path, value);
    else for (const [inner, text] of keysOf(value, path)) keys.set(inner, text);
  }
  return keys;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|vue)$/.test(name) ? [path] : [];
  });
}

const english = keysOf(MESSAGES.en as unknown as Tree);

const TRANSLATIONS = INTERFACE_LANGUAGES.filter((language) => language !== 'en');

/** Per language, the English keys it lacks (and keys English no longer has): all lists empty when complete. */
function keyGaps(
  messages: Record<string, unknown> = MESSAGES,
): Record<string, { missing: string[]; unknown: string[] }> {
  return Object.fromEntries(
    TRANSLATIONS.map((language) => {
      const translated = keysOf(messages[language] as Tree);
      return [
        language,
        {
          missing: [...english.keys()].filter((key) => !translated.has(key)).sort(),
          unknown: [...translated.keys()].filter((key) => !english.has(key)).sort(),
        },
      ];
    }),
  );
}

describe('interface translations', () => {
  it('speaks every language a record can carry (ml_language)', () => {
    expect([...INTERFACE_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(MESSAGES).sort()).toEqual([...LANGUAGES].sort());
  });

  it('has every English message in every language: the keys missing are listed per language', () => {
    const complete = Object.fromEntries(
      TRANSLATIONS.map((language) => [language, { missing: [], unknown: [] }]),
    );
    expect(keyGaps()).toEqual(complete);
  });

  it('finds a missing key, and names it with its language', () => {
    const { run: _dropped, ...syncWithoutRun } = MESSAGES.de.sync;
    void _dropped;
    const gaps = keyGaps({ ...MESSAGES, de: { ...MESSAGES.de, sync: syncWithoutRun } });
    expect(gaps.de).toEqual({ missing: ['sync.run'], unknown: [] });
    expect(gaps.fr).toEqual({ missing: [], unknown: [] });
  });

  it.each(TRANSLATIONS)('%s has no empty message and the same placeholders as English', (language) => {
    const translated = keysOf(MESSAGES[language] as unknown as Tree);
    for (const [key, text] of translated) {
      expect(text.trim(), `${language} ${key}`).not.toBe('');
      // Plural forms differ in number between languages: the same names must appear, not as often.
      const placeholders = (value: string) => [...new Set(value.match(/\{\w+\}/g) ?? [])].sort();
      if (english.has(key))
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(english.get(key)!));
    }
  });

  it('compiles every message in every language (an @ or a brace must be written as a literal)', () => {
    const complaints = [vi.spyOn(console, 'warn'), vi.spyOn(console, 'error')];
    try {
      for (const language of INTERFACE_LANGUAGES) {
        const { t } = createAppI18n(language).global;
        for (const key of english.keys())
          t(key, { n: 3, count: 3, name: 'X', title: 'X', from: 'A', to: 'B' }, 3);
      }
      expect(complaints.flatMap((spy) => spy.mock.calls.map((call) => String(call[0])))).toEqual([]);
    } finally {
      for (const spy of complaints) spy.mockRestore();
    }
    expect(createAppI18n('de').global.t('validation.invalid.email')).toBe(
      'Geben Sie eine E-Mail-Adresse ein, etwa name@example.org.',
    );
  });

  it('counts events in the plural forms of each language', () => {
    const say = (language: string, count: number) =>
      createAppI18n(language).global.t('records.venueUsage', count);
    expect(say('en', 0)).toBe('No event uses it.');
    expect(say('en', 1)).toMatch(/^1 event uses it/);
    expect(say('en', 3)).toMatch(/^3 events use it/);
    expect(say('it', 2)).toMatch(/^2 eventi lo usano/);
    expect([0, 1, 3, 5, 22].map((count) => say('cs', count).split(':')[0])).toEqual([
      'Žádná událost ho nepoužívá.',
      'Používá ho 1 událost',
      'Používají ho 3 události',
      'Používá ho 5 událostí',
      // Unlike Polish, 22 is "many" in Czech.
      'Používá ho 22 událostí',
    ]);
    expect(say('de', 2)).toMatch(/^2 Veranstaltungen nutzen ihn/);
    expect(say('fr', 1)).toMatch(/^1 événement l’utilise/);
    expect(say('es', 0)).toBe('Ningún evento lo usa.');
    expect([1, 3, 5, 12, 22, 25].map((count) => say('pl', count).split(':')[0])).toEqual([
      'Korzysta z niego 1 wydarzenie',
      'Korzystają z niego 3 wydarzenia',
      'Korzysta z niego 5 wydarzeń',
      'Korzysta z niego 12 wydarzeń',
      'Korzystają z niego 22 wydarzenia',
      'Korzysta z niego 25 wydarzeń',
    ]);
  });

  it('every literal message key the renderer uses exists', () => {
    const used = new Set<string>();
    for (const file of sources(join(ROOT, 'src', 'renderer', 'src'))) {
      const text = readFileSync(file, 'utf8');
      // t('a.b'), label: 'a.b', action: 'a.b', title: 'a.b' (keys handed to t() later)
      for (const match of text.matchAll(/(?:\bt\(|label: |action: |title: )'([a-z]+\.[A-Za-z.]+)'/g))
        used.add(match[1]);
    }
    expect(used.size).toBeGreaterThan(100);
    expect([...used].filter((key) => !english.has(key))).toEqual([]);
  });
});

describe('the interface language at first start', () => {
  it("is the first of the browser's (the system's) languages the app speaks, in the user's order", () => {
    expect(browserLanguage(['de-AT', 'en-US'])).toBe('de');
    expect(browserLanguage(['cs'])).toBe('cs');
    // A Slovak system that also lists Czech gets Czech, not English.
    expect(browserLanguage(['sk-SK', 'sk', 'cs-CZ', 'en'])).toBe('cs');
    expect(browserLanguage(['es-MX'])).toBe('es');
    expect(browserLanguage(['fr_CA'])).toBe('fr');
  });

  it('is English when none of them is spoken here', () => {
    expect(browserLanguage(['ja-JP', 'ko'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});
