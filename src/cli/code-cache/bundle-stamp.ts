/**
 * The first line of dist/cli-bundle.js names the bundle's content hash, stamped by the build
 * (scripts/bundle-cli.ts). The loader keys the V8 code cache to it without hashing ~10 MB at every
 * start (that alone would cost ~10 ms of a ~200 ms start).
 */
import { createHash } from 'node:crypto';

const PREFIX = '// vv-agent cli bundle sha256:';

/** `body` with its stamp line in front. */
export function stampBundle(body: string): string {
  return `${PREFIX}${createHash('sha256').update(body).digest('hex')}\n${body}`;
}

/** The stamped hash, or null when `source` has no stamp (then no cache is ever loaded for it). */
export function bundleStamp(source: string): string | null {
  if (!source.startsWith(PREFIX)) return null;
  const end = source.indexOf('\n');
  const hash = source.slice(PREFIX.length, end === -1 ? undefined : end);
  return /^[0-9a-f]{64}$/.test(hash) ? hash : null;
}
