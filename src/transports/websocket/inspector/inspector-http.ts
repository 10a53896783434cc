/**
 * `--inspector` (docs/spec/inspector.md §1, §3): serves the built page from dist/inspector/ on the
 * WebSocket listener's port. The file names are read once at start-up, so a request can only ever
 * name one of them; each answer carries the security headers, 404s included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { CONTENT_TYPES, INSPECTOR_SECURITY_HEADERS } from './inspector-headers';
import { inspectorTarget } from './inspector-path';

export interface InspectorHttp {
  /** Answers an inspector path and returns true; false for every other path. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

/** Thrown at start-up when the page was not built (`npm run build` writes it). */
export class InspectorAssetsMissingError extends Error {}

export function createInspectorHttp(assetDir: string): InspectorHttp {
  const assets = loadAssets(assetDir);
  return {
    handle(request, response) {
      const target = inspectorTarget(request.url ?? '/');
      if (target.kind === 'other') return false;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        send(response, 405, 'text/plain; charset=utf-8', Buffer.from('method not allowed\n'), request, {
          allow: 'GET, HEAD',
        });
        return true;
      }
      if (target.kind === 'redirect') {
        send(response, 308, 'text/plain; charset=utf-8', Buffer.from(''), request, {
          location: target.location,
        });
        return true;
      }
      const asset = target.kind === 'asset' ? assets.get(target.name) : undefined;
      if (asset === undefined) {
        send(response, 404, 'text/plain; charset=utf-8', Buffer.from('not found\n'), request);
        return true;
      }
      send(response, 200, asset.contentType, asset.body, request);
      return true;
    },
  };
}

interface Asset {
  contentType: string;
  body: Buffer;
}

function loadAssets(dir: string): Map<string, Asset> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new InspectorAssetsMissingError(`--inspector: the page is not built (${dir} is missing)`);
  }
  const assets = new Map<string, Asset>();
  for (const name of names) {
    const contentType = CONTENT_TYPES[extname(name)];
    // Source maps and anything unexpected stay unserved.
    if (contentType !== undefined) assets.set(name, { contentType, body: readFileSync(join(dir, name)) });
  }
  if (!assets.has('index.html'))
    throw new InspectorAssetsMissingError(`--inspector: the page is not built (${dir} has no index.html)`);
  return assets;
}

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: Buffer,
  request: IncomingMessage,
  extra: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...INSPECTOR_SECURITY_HEADERS,
    ...extra,
    'content-type': contentType,
    'content-length': body.length,
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
