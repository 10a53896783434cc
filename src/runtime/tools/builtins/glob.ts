/**
 * Glob patterns matched against `/`-separated paths relative to a search root. `**` followed by `/`
 * matches zero or more directories, `**` elsewhere anything, `*` and `?` never cross `/`; `[...]` and
 * `[!...]` classes and `{a,b}` alternatives are supported; `\` escapes the next character. A pattern
 * without `/` therefore matches files directly under the root only (the default `**` + `/*` reaches
 * every level).
 *
 * Matching is a simulation of the pattern's automaton (a set of states advanced one character at a
 * time), not a backtracking regex: time is linear in the path length times the pattern length, so
 * a pattern such as fourteen `*` cannot stall the event loop (issue 12). `{…}` alternatives are
 * expanded first, up to a bound.
 */
import { BuiltinToolError } from './tool-error';

/** Alternatives a glob may expand to; beyond it the glob is rejected rather than matched slowly. */
export const MAX_GLOB_ALTERNATIVES = 1_024;

type Token =
  | { kind: 'literal'; char: string }
  | { kind: 'any' }
  | { kind: 'class'; negated: boolean; ranges: Array<[number, number]> }
  | { kind: 'star' }
  | { kind: 'globstar' }
  | { kind: 'globstar_dir' };

/** Index of the `]` closing a class opened at `start`, or -1 (then `[` is a literal). */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '!' || pattern[index] === '^') index += 1;
  if (pattern[index] === ']') index += 1;
  for (; index < pattern.length; index += 1) {
    if (pattern[index] === ']') return index;
  }
  return -1;
}

/** Index of the `}` closing an alternative group opened at `start`, honouring nesting, or -1. */
function braceEnd(pattern: string, start: number): number {
  let depth = 0;
  for (let index = start; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') index += 1;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (char === '\\') {
      current += char + (body[index + 1] ?? '');
      index += 1;
      continue;
    }
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** Index of the first `{` that opens a group (escapes and classes skipped), or -1. */
function firstBrace(pattern: string): number {
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') index += 1;
    else if (char === '[' && classEnd(pattern, index) !== -1) index = classEnd(pattern, index);
    else if (char === '{' && braceEnd(pattern, index) !== -1) return index;
  }
  return -1;
}

function tooManyAlternatives(): BuiltinToolError {
  return new BuiltinToolError(
    'invalid_arguments',
    `glob expands to more than ${MAX_GLOB_ALTERNATIVES} {…} alternatives`,
  );
}

/** The brace-free patterns a glob stands for. */
export function expandBraces(pattern: string): string[] {
  const open = firstBrace(pattern);
  if (open === -1) return [pattern];
  const close = braceEnd(pattern, open);
  const prefix = pattern.slice(0, open);
  const suffixes = expandBraces(pattern.slice(close + 1));
  const expanded: string[] = [];
  for (const alternative of splitAlternatives(pattern.slice(open + 1, close))) {
    for (const middle of expandBraces(alternative)) {
      for (const suffix of suffixes) {
        expanded.push(prefix + middle + suffix);
        if (expanded.length > MAX_GLOB_ALTERNATIVES) throw tooManyAlternatives();
      }
    }
  }
  return expanded;
}

function parseClass(body: string): Token {
  const negated = body.startsWith('!') || body.startsWith('^');
  const members = Array.from(negated ? body.slice(1) : body);
  const ranges: Array<[number, number]> = [];
  for (let index = 0; index < members.length; index += 1) {
    const low = members[index].codePointAt(0) ?? 0;
    if (members[index + 1] === '-' && index + 2 < members.length) {
      ranges.push([low, members[index + 2].codePointAt(0) ?? 0]);
      index += 2;
    } else {
      ranges.push([low, low]);
    }
  }
  return { kind: 'class', negated, ranges };
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    if (pattern.startsWith('**/', index)) {
      tokens.push({ kind: 'globstar_dir' });
      index += 3;
    } else if (pattern.startsWith('**', index)) {
      tokens.push({ kind: 'globstar' });
      index += 2;
    } else if (char === '*') {
      tokens.push({ kind: 'star' });
      index += 1;
    } else if (char === '?') {
      tokens.push({ kind: 'any' });
      index += 1;
    } else if (char === '[' && classEnd(pattern, index) !== -1) {
      const end = classEnd(pattern, index);
      tokens.push(parseClass(pattern.slice(index + 1, end)));
      index = end + 1;
    } else if (char === '\\' && index + 1 < pattern.length) {
      tokens.push({ kind: 'literal', char: pattern[index + 1] });
      index += 2;
    } else {
      tokens.push({ kind: 'literal', char });
      index += 1;
    }
  }
  return tokens;
}

function classMatches(token: Extract<Token, { kind: 'class' }>, char: string): boolean {
  // A class never matches the separator, as in shell globs.
  if (char === '/') return false;
  const code = char.codePointAt(0) ?? 0;
  const inside = token.ranges.some(([low, high]) => code >= low && code <= high);
  return inside !== token.negated;
}

/**
 * State `i` (0 ≤ i ≤ n) = "before token i", `n` accepting; state `n + 1 + i` = inside the
 * `globstar_dir` token `i` after at least one character (waiting for the `/` that ends it).
 */
function matchTokens(tokens: Token[], candidate: string): boolean {
  const n = tokens.length;
  const close = (states: Set<number>): Set<number> => {
    // Epsilon moves only go forward (skipping an optional token), so one pass in order suffices.
    for (let state = 0; state < n; state += 1) {
      const kind = tokens[state].kind;
      if (states.has(state) && (kind === 'star' || kind === 'globstar' || kind === 'globstar_dir')) {
        states.add(state + 1);
      }
    }
    return states;
  };
  let current = close(new Set([0]));
  for (const char of candidate) {
    const next = new Set<number>();
    for (const state of current) {
      if (state > n) {
        const dir = state - n - 1;
        next.add(state);
        if (char === '/') next.add(dir + 1);
        continue;
      }
      if (state === n) continue;
      const token = tokens[state];
      switch (token.kind) {
        case 'literal':
          if (token.char === char) next.add(state + 1);
          break;
        case 'any':
          if (char !== '/') next.add(state + 1);
          break;
        case 'class':
          if (classMatches(token, char)) next.add(state + 1);
          break;
        case 'star':
          if (char !== '/') next.add(state);
          break;
        case 'globstar':
          next.add(state);
          break;
        case 'globstar_dir':
          next.add(n + 1 + state);
          break;
      }
    }
    if (next.size === 0) return false;
    current = close(next);
  }
  return current.has(n);
}

export type GlobMatcher = (relativePath: string) => boolean;

export function compileGlob(pattern: string): GlobMatcher {
  let normalized = pattern;
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  const alternatives = expandBraces(normalized).map(tokenize);
  return (relativePath) => alternatives.some((tokens) => matchTokens(tokens, relativePath));
}
