/** Every failure the typed client reports (docs/spec/protocol.md §13). `code`/`data` come from a server error. */
export class AppServerClientError extends Error {
  readonly code?: number;
  readonly data?: unknown;

  constructor(message: string, details: { code?: number; data?: unknown } = {}) {
    super(message);
    this.name = 'AppServerClientError';
    if (details.code !== undefined) this.code = details.code;
    if ('data' in details) this.data = details.data;
  }
}

/** The exact messages of §13. */
export const CLIENT_MESSAGES = {
  closed: 'App Server client is closed',
  connectionClosed: 'App Server connection closed',
  messageTimeout: 'timed out waiting for App Server message',
  requestTimeout: (method: string): string => `timed out waiting for App Server ${method} response`,
  decodeFailure: (method: string, detail: string): string =>
    `failed decoding App Server ${method} response: ${detail}`,
  invalidOutput: (line: string): string => `invalid App Server output: ${line.slice(0, 200)}`,
  connectFailure: (url: string, cause: string): string =>
    `failed to connect to App Server at ${url}: ${cause}`,
} as const;
