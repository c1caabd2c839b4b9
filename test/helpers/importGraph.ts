import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every `.ts` file under `root`, recursively. */
export function sourceFiles(root: string, pattern = /\.ts$/): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (pattern.test(name)) found.push(path);
    }
  };
  walk(root);
  return found;
}

/** Every folder under `root` (itself included), as paths relative to `base`. */
export function folders(root: string, base: string): string[] {
  const found = [relative(base, root)];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) found.push(...folders(path, base));
  }
  return found;
}

const IMPORT = /^(?:import|export)\s+(?!type\b)([^;]*?)from\s+'(\.[^']+)'/gms;
const TYPES_ONLY = /^\{\s*(?:type\s+[\w$]+\s*(?:as\s+[\w$]+\s*)?,?\s*)+\}\s*$/;

/**
 * The relative imports between the files under `root` that load code at run time (`import type` and imports of
 * types only are erased by the compiler, so they make no cycle).
 */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const targets: string[] = [];
    for (const [, names, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (TYPES_ONLY.test(names!.trim())) continue;
      const base = resolve(dirname(file), specifier!);
      const target = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path));
      if (target) targets.push(target);
    }
    graph.set(resolve(file), targets);
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan): each is an import cycle. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) cycles.push(group);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}
