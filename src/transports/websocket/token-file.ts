/**
 * `--ws-token-file` (docs/spec/websocket.md §1): the file's trimmed content is the token, 16–512 characters
 * of `[A-Za-z0-9._~-]`, read once at startup. Errors never contain the token.
 */
import { readFileSync } from 'node:fs';

const TOKEN = /^[A-Za-z0-9._~-]{16,512}$/;

/** A token file problem: exit 2 with `--ws-token-file: <cause>`. */
export class TokenFileError extends Error {
  constructor(cause: string) {
    super(`--ws-token-file: ${cause}`);
  }
}

/** Pure: the token in `content`, or the reason it is not one. */
export function tokenFromContent(content: string): { token: string } | { error: string } {
  const token = content.trim();
  if (token.length < 16 || token.length > 512) return { error: 'token must be 16-512 characters' };
  if (!TOKEN.test(token)) return { error: 'token may only contain A-Z a-z 0-9 . _ ~ -' };
  return { token };
}

export function readTokenFile(path: string): string {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new TokenFileError(
      code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${(error as Error).message}`,
    );
  }
  const parsed = tokenFromContent(content);
  if ('error' in parsed) throw new TokenFileError(parsed.error);
  return parsed.token;
}
