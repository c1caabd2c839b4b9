import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppI18n, MESSAGES } from '../../src/renderer/src/i18n';
import { ROOT } from '../cli/cliProcess';

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

describe('interface translations', () => {
  it.each(['it', 'pl'] as const)(
    '%s has every English message, none empty, same placeholders',
    (language) => {
      const translated = keysOf(MESSAGES[language] as unknown as Tree);
      expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, text] of translated) {
        expect(text.trim(), key).not.toBe('');
        // Plural forms differ in number between languages: the same names must appear, not as often.
        const placeholders = (value: string) => [...new Set(value.match(/\{\w+\}/g) ?? [])].sort();
        expect(placeholders(text), key).toEqual(placeholders(english.get(key)!));
      }
    },
  );

  it('counts events in the plural forms of each language', () => {
    const say = (language: string, count: number) =>
      createAppI18n(language).global.t('records.venueUsage', count);
    expect(say('en', 0)).toBe('No event uses it.');
    expect(say('en', 1)).toMatch(/^1 event uses it/);
    expect(say('en', 3)).toMatch(/^3 events use it/);
    expect(say('it', 2)).toMatch(/^2 eventi lo usano/);
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
