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
 * Top-level modules every folder but the runtime may import. They must import nothing of ours, so
 * they cannot close a cycle. package-layout.ts sits at the top because the CLI bundle's modules
 * share the bundle's directory, which is the directory a top-level module compiles to (dist). The
 * runtime is embeddable alone (docs/runtime-guide.md), so it imports nothing outside itself.
 */
const LEAVES: readonly string[] = ['package-layout.ts'];
const LEAF_IMPORTERS: readonly string[] = Object.keys(ALLOWED).filter((folder) => folder !== 'runtime');

/**
 * Packages a folder must not import (`@scope/*`: every package of the scope). The core knows no
 * transport and no store implementation; the runtime knows nothing of Nest, the store or sockets.
 */
const FORBIDDEN_PACKAGES: Record<string, readonly string[]> = {
  core: ['@nestjs/microservices', 'pg', 'typeorm'],
  runtime: ['@nestjs/*', 'typeorm', 'pg', 'ws'],
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file loads: static and type imports, re-exports, `import()` and `require()`. */
function importedModules(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const patterns = [
    /\bfrom\s+'([^']+)'/g,
    /^\s*import\s+'([^']+)'/gm,
    /\b(?:import|require)\(\s*'([^']+)'\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
}

interface RelativeImport {
  file: string;
  specifier: string;
  /** The imported module's path, without extension. */
  target: string;
}

function relativeImports(file: string): RelativeImport[] {
  return importedModules(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ file, specifier, target: normalize(join(dirname(file), specifier)) }));
}

function folderOf(path: string): string {
  return relative(SRC, path).split('/')[0];
}

/** The package an import names: `@scope/name` or `name`; null for relative and `node:` modules. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isForbidden(packageName: string, rules: readonly string[]): boolean {
  return rules.some((rule) =>
    rule.endsWith('/*') ? packageName.startsWith(rule.slice(0, -1)) : packageName === rule,
  );
}

/** `<from> <-> <to>` for each import between two subfolders of `root` that closes a cycle; files directly in `root` are not a folder. */
function subfolderCycles(root: string): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of sourceFiles(root).flatMap(relativeImports)) {
    const [from, ...fromRest] = relative(root, file).split('/');
    const [to, ...toRest] = relative(root, target).split('/');
    if (!target.startsWith(root + '/') || fromRest.length === 0 || toRest.length === 0) continue;
    if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
  }
  const reaches = (start: string, goal: string, seen = new Set<string>()): boolean => {
    for (const next of edges.get(start) ?? []) {
      if (next === goal) return true;
      if (!seen.has(next) && (seen.add(next), reaches(next, goal, seen))) return true;
    }
    return false;
  };
  const cycles: string[] = [];
  for (const [from, targets] of edges)
    for (const to of targets) if (reaches(to, from)) cycles.push(`${from} <-> ${to}`);
  return cycles.sort();
}

/** Imports from one subfolder of `root` into another that `allowed` (subfolder → subfolders) does not list; null: unchecked. */
function subfolderViolations(root: string, allowed: (from: string) => readonly string[] | null): string[] {
  const violations: string[] = [];
  for (const { file, specifier, target } of sourceFiles(root).flatMap(relativeImports)) {
    if (!target.startsWith(root + '/')) continue;
    const from = relative(root, file).split('/')[0];
    const to = relative(root, target).split('/')[0];
    const permitted = allowed(from);
    if (permitted !== null && to !== from && !permitted.includes(to))
      violations.push(`${relative(SRC, file)} -> ${specifier}`);
  }
  return violations;
}

describe('source layering', () => {
  it('imports only along the allowed folder edges, so no folder cycle exists', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = folderOf(file);
      const allowed = LEAVES.includes(from) ? [] : ALLOWED[from];
      if (allowed === undefined) continue; // package entry points (index.ts, main.ts)
      for (const { specifier, target } of relativeImports(file)) {
        const to = folderOf(target);
        const leaf = LEAVES.includes(`${to}.ts`) && LEAF_IMPORTERS.includes(from);
        if (to !== from && !allowed.includes(to) && !leaf)
          violations.push(`${relative(SRC, file)} -> ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps packages out of the layers that must not know them (no Nest, store or socket in the runtime)', () => {
    const violations: string[] = [];
    for (const [folder, rules] of Object.entries(FORBIDDEN_PACKAGES))
      for (const file of sourceFiles(join(SRC, folder)))
        for (const specifier of importedModules(file)) {
          const packageName = packageOf(specifier);
          if (packageName !== null && isForbidden(packageName, rules))
            violations.push(`${relative(SRC, file)} -> ${specifier}`);
        }
    expect(violations).toEqual([]);
  });

  it('keeps tests out of src: unit tests live in test/unit/<mirror of src>', () => {
    const specs = sourceFiles(SRC)
      .filter((file) => /\.(e2e-|rel-)?spec\.ts$/.test(file))
      .map((file) => relative(SRC, file));
    expect(specs).toEqual([]);
  });

  it('has no import cycle between the folders of the core (threads, turns, approvals, …)', () => {
    expect(subfolderCycles(join(SRC, 'core'))).toEqual([]);
  });

  it('has no import cycle between the folders of the runtime (events, tools, approvals, usage, …)', () => {
    expect(subfolderCycles(join(SRC, 'runtime'))).toEqual([]);
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
    expect(subfolderViolations(transports, (from) => TRANSPORTS[from])).toEqual([]);
  });

  it('keeps each protocol adapter (app-server-v1, acp) to itself: protocols never import each other', () => {
    expect(subfolderViolations(join(SRC, 'protocols'), () => [])).toEqual([]);
  });

  it('uses the ACP SDK only in the ACP adapter (protocols/acp): the core knows no ACP', () => {
    const users = sourceFiles(SRC)
      .filter((file) =>
        importedModules(file).some((specifier) => packageOf(specifier) === '@agentclientprotocol/sdk'),
      )
      .map((file) => relative(SRC, file));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((file) => !file.startsWith('protocols/acp/'))).toEqual([]);
  });

  it('keeps the store drivers apart: typeorm/ is driver-neutral, sqlite/ and postgres/ never import each other', () => {
    /** driver folder → the persistence folders it may import from. */
    const drivers: Record<string, readonly string[]> = {
      typeorm: [],
      sqlite: ['typeorm'],
      postgres: ['typeorm'],
    };
    // open-app-server-store.ts picks a driver, so it is not checked.
    expect(subfolderViolations(join(SRC, 'persistence'), (from) => drivers[from] ?? null)).toEqual([]);
  });

  it('knows every top-level folder of src', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(folders.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
