/**
 * The response headers of every inspector path (docs/spec/inspector.md §3): the page runs only its
 * own script and style, talks only to its own origin, and is never framed; agent text can therefore
 * never become script even if a rendering bug inserted it as markup.
 */
export const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

export const INSPECTOR_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': INSPECTOR_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The page is rebuilt with the package: a stale cached copy could talk an older protocol.
  'cache-control': 'no-cache',
};

/** Content types of the files the build writes to dist/inspector/ (scripts/bundle-inspector.ts). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};
