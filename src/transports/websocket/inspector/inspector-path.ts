/**
 * Request target → the asset file name it may serve, or null (404). Only flat names of the built
 * page are ever served (dist/inspector/ has no sub-folders), so `..`, encoded traversal (`%2e%2e`,
 * `%2f`, `%5c`), back-slashes, NUL and hidden files are refused before any file-system access
 * (docs/spec/inspector.md §3), and a folder is never listed.
 */
export const INSPECTOR_PREFIX = '/inspector/';
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export type InspectorTarget =
  /** Not an inspector path at all: the listener answers as without `--inspector`. */
  | { kind: 'other' }
  /** `/inspector` without its slash: relative asset URLs need the slash. */
  | { kind: 'redirect'; location: string }
  | { kind: 'asset'; name: string }
  | { kind: 'not-found' };

export function inspectorTarget(url: string): InspectorTarget {
  const query = url.indexOf('?');
  const path = query >= 0 ? url.slice(0, query) : url;
  if (path === '/inspector') return { kind: 'redirect', location: INSPECTOR_PREFIX };
  if (!path.startsWith(INSPECTOR_PREFIX)) return { kind: 'other' };
  const rest = path.slice(INSPECTOR_PREFIX.length);
  if (rest === '') return { kind: 'asset', name: 'index.html' };
  // Matched on the raw text: any percent-escape (an encoded dot or slash included) is refused.
  if (!ASSET_NAME.test(rest) || rest.includes('..')) return { kind: 'not-found' };
  return { kind: 'asset', name: rest };
}
