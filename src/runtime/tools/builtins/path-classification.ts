/** Shared listing/search classifications of workspace-relative `/` paths (docs/spec/runtime.md §10.2). */

export const IGNORED_ROOT_NAMES: ReadonlySet<string> = new Set([
  '.venv',
  'venv',
  'node_modules',
  '.git',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.idea',
  '.vscode',
  'dist',
  'build',
  '.next',
  '.nuxt',
  '.cache',
  'target',
  'vendor',
]);

const SENSITIVE_EXACT_NAMES: ReadonlySet<string> = new Set([
  '.env',
  '.npmrc',
  '.pypirc',
  '.netrc',
  'credentials',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
]);
const ENV_TEMPLATE_NAMES: ReadonlySet<string> = new Set(['.env.example', '.env.sample', '.env.template']);
const SENSITIVE_PREFIXES = ['secrets.', 'secret.'];
const SENSITIVE_SUFFIXES = ['.key', '.pem', '.p8', '.p12', '.pfx', '.env'];
const SENSITIVE_NAME_TOKENS = ['credential', 'secret', 'token', 'private_key'];
const SECRET_HOLDING_DIRS: ReadonlySet<string> = new Set([
  '.config',
  'config',
  'configs',
  'keys',
  'secrets',
  '.ssh',
  '.aws',
  '.gcp',
]);

function segments(relativePath: string): string[] {
  return relativePath.split('/').filter((segment) => segment !== '' && segment !== '.');
}

/** Any segment starting with `.`. */
export function isHiddenPath(relativePath: string): boolean {
  return segments(relativePath).some((segment) => segment.startsWith('.'));
}

/** Whether a root-level name is one of the ignored roots (case-insensitive). */
export function isIgnoredRootName(name: string): boolean {
  return IGNORED_ROOT_NAMES.has(name.toLowerCase());
}

/** Whether the first segment of a workspace-relative path is an ignored root. */
export function isUnderIgnoredRoot(relativePath: string): boolean {
  const [first] = segments(relativePath);
  return first !== undefined && isIgnoredRootName(first);
}

/** Paths that look like secrets, credentials, keys, tokens or private config. */
export function isSensitivePath(relativePath: string): boolean {
  const parts = segments(relativePath);
  const last = parts.at(-1);
  if (last === undefined) return false;
  const name = last.toLowerCase();
  if (SENSITIVE_EXACT_NAMES.has(name)) return true;
  if (name.startsWith('.env.') && !ENV_TEMPLATE_NAMES.has(name)) return true;
  if (SENSITIVE_PREFIXES.some((prefix) => name.startsWith(prefix))) return true;
  if (SENSITIVE_SUFFIXES.some((suffix) => name.endsWith(suffix))) return true;
  if (SENSITIVE_NAME_TOKENS.some((token) => name.includes(token))) {
    return parts.slice(0, -1).some((dir) => SECRET_HOLDING_DIRS.has(dir.toLowerCase()));
  }
  return false;
}
