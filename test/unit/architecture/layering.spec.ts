/**
 * Dependencies point one way (docs/architecture.md): every relative import between top-level
 * folders of src/ must be an allowed edge. A new edge is a design decision — change the table and
 * the document together.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const SRC = join(__dirname, '../../../src');

/** folder → the folders it may import from. */
const ALLOWED: Record<string, readonly string[]> = {
  runtime: [],
  core: ['runtime'],
  persistence: ['core', 'runtime'],
  rpc: ['runtime'],
  transports: ['rpc', 'runtime'],
  protocols: ['rpc', 'core', 'runtime'],
  client: ['protocols', 'rpc', 'core', 'runtime'],
  nest: ['protocols', 'transports', 'persistence', 'rpc', 'core', 'runtime'],
  cli: ['nest', 'client', 'protocols', 'transports', 'persistence', 'rpc', 'core', 'runtime'],
};

/**
 * Top-level modules every folder may import. They must import nothing of ours, so they cannot
 * close a cycle. package-layout.ts sits at the top because the CLI bundle's modules share the
 * bundle's directory, which is the directory a top-level module compiles to (dist).
 */
const LEAVES: readonly string[] = ['package-layout.ts'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function folderOf(path: string): string {
  return relative(SRC, path).split('/')[0];
}

describe('source layering', () => {
  it('imports only along the allowed folder edges, so no folder cycle exists', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = folderOf(file);
      const allowed = LEAVES.includes(from) ? [] : ALLOWED[from];
      if (allowed === undefined) continue; // package entry points (index.ts, main.ts)
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const to = folderOf(normalize(join(dirname(file), match[1])));
        if (to !== from && !allowed.includes(to) && !LEAVES.includes(`${to}.ts`))
          violations.push(`${relative(SRC, file)} -> ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('has no import cycle between the folders of the core (threads, turns, approvals, …)', () => {
    const core = join(SRC, 'core');
    const edges = new Map<string, Set<string>>();
    for (const file of sourceFiles(core)) {
      const from = relative(core, file).split('/')[0];
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = normalize(join(dirname(file), match[1]));
        if (!target.startsWith(core)) continue;
        const to = relative(core, target).split('/')[0];
        if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const cycles: string[] = [];
    const reaches = (start: string, goal: string, seen = new Set<string>()): boolean => {
      for (const next of edges.get(start) ?? []) {
        if (next === goal) return true;
        if (!seen.has(next) && (seen.add(next), reaches(next, goal, seen))) return true;
      }
      return false;
    };
    for (const [from, targets] of edges)
      for (const to of targets) if (reaches(to, from)) cycles.push(`${from} <-> ${to}`);
    expect(cycles).toEqual([]);
  });

  it('keeps the transports apart: native messaging reuses the stdio process server, nothing else crosses', () => {
    /** transport folder → the transport folders it may import from. */
    const TRANSPORTS: Record<string, readonly string[]> = {
      stdio: [],
      'native-messaging': ['stdio'],
      'in-process': [],
      websocket: [],
    };
    const transports = join(SRC, 'transports');
    const folders = readdirSync(transports).filter((name) => statSync(join(transports, name)).isDirectory());
    expect(folders.sort()).toEqual(Object.keys(TRANSPORTS).sort());
    const violations: string[] = [];
    for (const file of sourceFiles(transports)) {
      const from = relative(transports, file).split('/')[0];
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = normalize(join(dirname(file), match[1]));
        if (!target.startsWith(transports)) continue;
        const to = relative(transports, target).split('/')[0];
        if (to !== from && !TRANSPORTS[from].includes(to))
          violations.push(`${relative(SRC, file)} -> ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps each protocol adapter (app-server-v1, acp) to itself: protocols never import each other', () => {
    const protocols = join(SRC, 'protocols');
    const violations: string[] = [];
    for (const file of sourceFiles(protocols)) {
      const from = relative(protocols, file).split('/')[0];
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = normalize(join(dirname(file), match[1]));
        if (!target.startsWith(protocols)) continue;
        const to = relative(protocols, target).split('/')[0];
        if (to !== from) violations.push(`${relative(SRC, file)} -> ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('uses the ACP SDK only in the ACP adapter (protocols/acp): the core knows no ACP', () => {
    const users = sourceFiles(SRC)
      .filter((file) => /from '@agentclientprotocol\/sdk[^']*'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((file) => !file.startsWith('protocols/acp/'))).toEqual([]);
  });

  it('keeps the store drivers apart: typeorm/ is driver-neutral, sqlite/ and postgres/ never import each other', () => {
    const persistence = join(SRC, 'persistence');
    /** driver folder → the persistence folders it may import from. */
    const drivers: Record<string, readonly string[]> = {
      typeorm: [],
      sqlite: ['typeorm'],
      postgres: ['typeorm'],
    };
    const violations: string[] = [];
    for (const file of sourceFiles(persistence)) {
      const from = relative(persistence, file).split('/')[0];
      const allowed = drivers[from];
      if (allowed === undefined) continue; // open-app-server-store.ts picks a driver
      for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = normalize(join(dirname(file), match[1]));
        if (!target.startsWith(persistence)) continue;
        const to = relative(persistence, target).split('/')[0];
        if (to !== from && !allowed.includes(to)) violations.push(`${relative(SRC, file)} -> ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('knows every top-level folder of src', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(folders.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
