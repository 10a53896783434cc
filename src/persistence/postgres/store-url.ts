/**
 * `--store postgres://user:password@host:port/database` (docs/spec/postgres.md §1): the URL as pg connection
 * settings, and the same URL without its password for every message that names the store. User
 * and password are percent-decoded as in any URL; `sslmode` follows libpq's meaning where pg can
 * honour it (`require`: encrypted, certificate not verified; `verify-ca`/`verify-full`: verified).
 */
import type { TlsOptions } from 'node:tls';

export interface PostgresConnectionSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
  ssl: boolean | TlsOptions;
}

const DEFAULT_PORT = 5432;

export function isPostgresStoreUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

export class StoreUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUrlError';
  }
}

/** Throws StoreUrlError (never naming the password) when the URL cannot be used. */
export function parsePostgresStoreUrl(target: string): PostgresConnectionSettings {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new StoreUrlError('invalid PostgreSQL store URL');
  }
  const username = decodeUrlPart(url.username, 'user');
  const password = decodeUrlPart(url.password, 'password');
  const socketDirectory = url.searchParams.get('host');
  const host = socketDirectory ?? url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new StoreUrlError('PostgreSQL store URL has no host');
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  const database = decodeUrlPart(url.pathname.replace(/^\//, ''), 'database') || username;
  if (database === '') throw new StoreUrlError('PostgreSQL store URL has no database');
  return { host, port, username, password, database, ssl: sslFor(url.searchParams.get('sslmode')) };
}

function decodeUrlPart(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new StoreUrlError(`PostgreSQL store URL has a malformed ${what}`);
  }
}

function sslFor(mode: string | null): boolean | TlsOptions {
  switch (mode) {
    case null:
    case 'disable':
    case 'allow':
    case 'prefer':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-ca':
    case 'verify-full':
      return true;
    default:
      throw new StoreUrlError(`unsupported sslmode: ${mode}`);
  }
}

/** The URL as shown in messages: everything but the password. */
export function describePostgresStore(settings: PostgresConnectionSettings): string {
  const user = settings.username === '' ? '' : `${encodeURIComponent(settings.username)}@`;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return `postgres://${user}${host}:${settings.port}/${encodeURIComponent(settings.database)}`;
}

/**
 * `text` with every spelling of `secret` a message could carry (as given, percent-encoded)
 * replaced by `***`: defence in depth over driver messages, which should never contain it.
 */
export function redactSecret(text: string, secret: string): string {
  if (secret === '') return text;
  let redacted = text;
  for (const spelling of new Set([secret, encodeURIComponent(secret)])) {
    redacted = redacted.split(spelling).join('***');
  }
  return redacted;
}
