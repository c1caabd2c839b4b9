import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folders, importCycles, importGraph } from '../helpers/importGraph';

const repo = resolve(__dirname, '../..');
const SOURCE_ROOTS = ['src/main', 'src/renderer/src', 'src/shared', 'src/preload'];

describe('the house rules', () => {
  it('has no import cycle in any source tree', () => {
    for (const root of SOURCE_ROOTS) {
      const cycles = importCycles(importGraph(join(repo, root))).map((group) =>
        group.map((file) => relative(repo, file)),
      );
      expect(cycles, `import cycles under ${root}`).toEqual([]);
    }
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cycle-'));
    try {
      mkdirSync(join(folder, 'a'));
      writeFileSync(join(folder, 'a', 'one.ts'), "import { two } from '../two';\nexport const one = two;\n");
      writeFileSync(
        join(folder, 'two.ts'),
        "import { one } from './a/one';\nexport const two = () => one;\n",
      );
      writeFileSync(
        join(folder, 'three.ts'),
        "import type { one } from './a/one';\nexport type Three = typeof one;\n",
      );
      const cycles = importCycles(importGraph(folder));
      expect(cycles.map((group) => group.map((file) => relative(folder, file)).sort())).toEqual([
        ['a/one.ts', 'two.ts'],
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names every source folder in docs/ARCHITECTURE.md', () => {
    const map = readFileSync(join(repo, 'docs/ARCHITECTURE.md'), 'utf8');
    const unnamed = SOURCE_ROOTS.flatMap((root) => folders(join(repo, root), repo)).filter(
      (folder) => !map.includes(`\`${folder}/\``),
    );
    expect(unnamed, 'folders the map does not name (write one line for each, as `src/…/folder/`)').toEqual(
      [],
    );
  });
});
