/**
 * stdout carries protocol only (docs/spec/protocol.md §1.1). Importing this module first thing in `main.ts`
 * keeps a private handle on the real stdout writer for the transport and points `process.stdout.write`
 * and every `console` method at stderr, so a stray log line from any dependency can never corrupt the
 * protocol stream. It is a side-effect module on purpose: it must run before other imports execute.
 */
import type { Writable } from 'node:stream';
import { inspect } from 'node:util';

export interface ProtocolOutput {
  /** Writes protocol bytes to the real stdout; returns false when the caller should wait for drain. */
  write(chunk: string | Uint8Array): boolean;
  cork(): void;
  uncork(): void;
  once(event: 'drain', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  /** The underlying stream, for end-of-output handling (flush on exit). */
  readonly stream: Writable;
}

const stdout = process.stdout;
const realWrite = stdout.write.bind(stdout) as (chunk: string | Uint8Array) => boolean;
const stderrWrite = process.stderr.write.bind(process.stderr);

stdout.write = stderrWrite as typeof stdout.write;
const toStderr = (...args: unknown[]): void => {
  process.stderr.write(args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ') + '\n');
};
// Redirecting (not calling) the stdout-bound console methods is the point of this module.
/* eslint-disable no-console */
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
/* eslint-enable no-console */

export const protocolOutput: ProtocolOutput = {
  write: (chunk) => realWrite(chunk),
  cork: () => stdout.cork(),
  uncork: () => stdout.uncork(),
  once: (event, listener) => void stdout.once(event, listener),
  on: (event, listener) => void stdout.on(event, listener),
  stream: stdout,
};
