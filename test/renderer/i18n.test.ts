import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/renderer/src/i18n';
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
        const placeholders = (value: string) => (value.match(/\{\w+\}/g) ?? []).sort();
        expect(placeholders(text), key).toEqual(placeholders(english.get(key)!));
      }
    },
  );

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
