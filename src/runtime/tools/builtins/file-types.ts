/** `search_files` file-type shortcuts and the binary files it never reads (docs/spec/runtime.md §10.4). */
import { fileSuffix } from './text-codec';

/** Extensions (with dot) or exact lower-cased file names per type. */
export const FILE_TYPE_PATTERNS: Readonly<Record<string, readonly string[]>> = {
  c: ['.c', '.h'],
  cpp: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++'],
  css: ['.css', '.scss', '.sass', '.less'],
  dockerfile: ['dockerfile'],
  go: ['.go'],
  html: ['.html', '.htm', '.xhtml'],
  ini: ['.ini', '.cfg', '.conf'],
  java: ['.java'],
  js: ['.js', '.jsx', '.mjs'],
  json: ['.json'],
  log: ['.log'],
  makefile: ['makefile', 'gnumakefile'],
  md: ['.md', '.markdown', '.mdown', '.mkd'],
  php: ['.php', '.php3', '.php4', '.php5'],
  py: ['.py', '.pyw', '.pyi'],
  rb: ['.rb', '.rbx', '.rhtml', '.ruby'],
  rust: ['.rs'],
  sh: ['.sh', '.bash', '.zsh', '.fish'],
  sql: ['.sql'],
  ts: ['.ts', '.tsx'],
  txt: ['.txt'],
  xml: ['.xml', '.xsl', '.xsd'],
  yaml: ['.yaml', '.yml'],
};

export const SUPPORTED_FILE_TYPES: readonly string[] = Object.keys(FILE_TYPE_PATTERNS).sort();

export function isSupportedFileType(type: string): boolean {
  return Object.prototype.hasOwnProperty.call(FILE_TYPE_PATTERNS, type);
}

function baseName(relativePath: string): string {
  return relativePath.slice(relativePath.lastIndexOf('/') + 1);
}

export function matchesFileType(relativePath: string, type: string): boolean {
  const name = baseName(relativePath).toLowerCase();
  const patterns = FILE_TYPE_PATTERNS[type] ?? [];
  return patterns.includes(name) || patterns.includes(fileSuffix(name));
}

const BINARY_SUFFIXES: ReadonlySet<string> = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.bmp',
  '.ico',
  '.pdf',
  '.zip',
  '.tar',
  '.gz',
  '.bz2',
  '.xz',
  '.7z',
  '.rar',
  '.mp3',
  '.wav',
  '.mp4',
  '.mov',
  '.avi',
  '.mkv',
  '.exe',
  '.dll',
  '.so',
  '.dylib',
  '.bin',
]);

/** Binary by name alone (skipped without reading). */
export function hasBinarySuffix(relativePath: string): boolean {
  return BINARY_SUFFIXES.has(fileSuffix(baseName(relativePath)).toLowerCase());
}

/** Binary by content: a NUL byte among the first 8 KiB, as git and grep decide. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
