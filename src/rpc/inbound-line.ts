/**
 * Steps 1–4 of the inbound line algorithm (docs/spec/protocol.md §1.2) for one framed line. Pure.
 */
import { classifyEnvelope, type InboundEnvelope } from './envelope';
import { JsonRpcErrors, type RpcError } from './rpc-error';
import type { RequestId } from './request-id';

export type LineVerdict =
  | { kind: 'ignore' }
  /** A protocol error to send, in any connection state. */
  | { kind: 'error'; id: RequestId | null; error: RpcError }
  | { kind: 'envelope'; envelope: Exclude<InboundEnvelope, { kind: 'invalid' }> };

/** Keeps a BOM inside a line as U+FEFF (not JSON whitespace → parse error); only the stream's first BOM is dropped, by the framer. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** JSON's insignificant whitespace. */
const BLANK_LINE = /^[ \t\r\n]*$/;

export function interpretLine(line: Uint8Array, maxMessageBytes: number): LineVerdict {
  if (line.length > maxMessageBytes)
    return { kind: 'error', id: null, error: JsonRpcErrors.inputTooLarge(maxMessageBytes) };
  let text: string;
  try {
    text = utf8.decode(line);
  } catch {
    return { kind: 'error', id: null, error: JsonRpcErrors.parseError() };
  }
  if (BLANK_LINE.test(text)) return { kind: 'ignore' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'error', id: null, error: JsonRpcErrors.parseError() };
  }
  const envelope = classifyEnvelope(value);
  if (envelope.kind === 'invalid')
    return { kind: 'error', id: envelope.echoId, error: JsonRpcErrors.invalidRequest() };
  return { kind: 'envelope', envelope };
}
