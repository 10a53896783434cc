/**
 * The inspector's paths and origin rule (docs/spec/inspector.md §1, §3): only flat names of the
 * built page are served, every form of traversal is 404 before the file system is touched, and the
 * page's own origin is admitted only for an IP literal or localhost (DNS rebinding).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectorTarget } from '../../../../src/transports/websocket/inspector/inspector-path';
import { isInspectorPageOrigin } from '../../../../src/transports/websocket/inspector/page-origin';
import {
  createInspectorHttp,
  InspectorAssetsMissingError,
} from '../../../../src/transports/websocket/inspector/inspector-http';
import { checkUpgrade } from '../../../../src/transports/websocket/upgrade-check';

describe('inspectorTarget', () => {
  it.each([
    ['/inspector/', { kind: 'asset', name: 'index.html' }],
    ['/inspector/?x=1', { kind: 'asset', name: 'index.html' }],
    ['/inspector/inspector.js', { kind: 'asset', name: 'inspector.js' }],
    ['/inspector/inspector.css?v=2', { kind: 'asset', name: 'inspector.css' }],
    ['/inspector', { kind: 'redirect', location: '/inspector/' }],
    ['/', { kind: 'other' }],
    ['/healthz', { kind: 'other' }],
    ['/inspectorx', { kind: 'other' }],
  ])('%s', (url, target) => expect(inspectorTarget(url)).toEqual(target));

  it.each([
    '/inspector/../package.json',
    '/inspector/..',
    '/inspector/%2e%2e/package.json',
    '/inspector/%2E%2E%2Fpackage.json',
    '/inspector/..%2fpackage.json',
    '/inspector/..%5cpackage.json',
    '/inspector/.%2e',
    '/inspector/a/b.js',
    '/inspector/sub/',
    '/inspector/.env',
    '/inspector/a..b',
    '/inspector/index.html%00',
    '/inspector/x\\..\\y',
  ])('%s is not found', (url) => expect(inspectorTarget(url)).toEqual({ kind: 'not-found' }));
});

describe('isInspectorPageOrigin', () => {
  it.each([
    ['http://127.0.0.1:8080', '127.0.0.1:8080', true],
    ['http://localhost:8080', 'localhost:8080', true],
    ['http://[::1]:8080', '[::1]:8080', true],
    ['http://10.0.0.5:8080', '10.0.0.5:8080', true],
    ['http://evil.example:8080', 'evil.example:8080', false],
    ['http://127.0.0.1:8080', '127.0.0.1:9090', false],
    ['https://127.0.0.1:8080', '127.0.0.1:8080', false],
    ['http://127.0.0.1:8080', undefined, false],
    ['null', 'null', false],
  ])('%s with Host %s → %s', (origin, host, admitted) =>
    expect(isInspectorPageOrigin(origin, host)).toBe(admitted),
  );

  it('is admitted by the upgrade check only with --inspector', () => {
    const request = {
      url: '/',
      origin: 'http://127.0.0.1:1',
      host: '127.0.0.1:1',
      authorization: undefined,
      protocols: [],
    };
    const policy = { token: null, allowedOrigins: new Set<string>() };
    expect(checkUpgrade(request, policy).kind).toBe('reject');
    expect(checkUpgrade(request, { ...policy, admitPageOrigin: true })).toEqual({ kind: 'accept' });
  });
});

describe('createInspectorHttp', () => {
  it('refuses to start when the page was not built', () => {
    const empty = mkdtempSync(join(tmpdir(), 'vv-inspector-assets-'));
    expect(() => createInspectorHttp(join(empty, 'missing'))).toThrow(InspectorAssetsMissingError);
    mkdirSync(join(empty, 'built'));
    writeFileSync(join(empty, 'built', 'inspector.js'), '');
    expect(() => createInspectorHttp(join(empty, 'built'))).toThrow('has no index.html');
  });
});
