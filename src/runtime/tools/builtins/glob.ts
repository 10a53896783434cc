/**
 * Glob patterns matched against `/`-separated paths relative to a search root. `**` followed by `/`
 * matches zero or more directories, `**` elsewhere anything, `*` and `?` never cross `/`; `[...]` and
 * `[!...]` classes and `{a,b}` alternatives are supported; `\` escapes the next character. A pattern
 * without `/` therefore matches files directly under the root only (the default `**` + `/*` reaches
 * every level).
 */

function escapeRegExpChar(char: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(char) ? `\\${char}` : char;
}

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

function translateClass(body: string): string {
  const negated = body.startsWith('!') || body.startsWith('^');
  const members = Array.from(negated ? body.slice(1) : body)
    .map((char) => (char === '-' ? '-' : escapeRegExpChar(char)))
    .join('');
  // A class never matches the separator, as in shell globs.
  return negated ? `[^/${members}]` : `(?:(?!/)[${members}])`;
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

function translate(pattern: string): string {
  let out = '';
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    if (pattern.startsWith('**/', index)) {
      out += '(?:.+/)?';
      index += 3;
    } else if (pattern.startsWith('**', index)) {
      out += '.*';
      index += 2;
    } else if (char === '*') {
      out += '[^/]*';
      index += 1;
    } else if (char === '?') {
      out += '[^/]';
      index += 1;
    } else if (char === '[' && classEnd(pattern, index) !== -1) {
      const end = classEnd(pattern, index);
      out += translateClass(pattern.slice(index + 1, end));
      index = end + 1;
    } else if (char === '{' && braceEnd(pattern, index) !== -1) {
      const end = braceEnd(pattern, index);
      out += `(?:${splitAlternatives(pattern.slice(index + 1, end))
        .map(translate)
        .join('|')})`;
      index = end + 1;
    } else if (char === '\\' && index + 1 < pattern.length) {
      out += escapeRegExpChar(pattern[index + 1]);
      index += 2;
    } else {
      out += escapeRegExpChar(char);
      index += 1;
    }
  }
  return out;
}

export type GlobMatcher = (relativePath: string) => boolean;

export function compileGlob(pattern: string): GlobMatcher {
  let normalized = pattern;
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  const regex = new RegExp(`^${translate(normalized)}$`, 's');
  return (relativePath) => regex.test(relativePath);
}
