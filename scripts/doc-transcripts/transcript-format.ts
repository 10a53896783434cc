/**
 * The line format of `docs/transcripts/*.jsonl`: one wire message per line, wrapped with the
 * direction it travelled. Shared by the generator (which writes it) and the docs unit test (which
 * reads it back and validates every message against the committed schemas).
 *
 *   {"direction":"→","message":{…}}            a JSON-RPC message the client wrote to stdin
 *   {"direction":"→","raw":"…"}                a deliberately malformed client line, sent as is
 *   {"direction":"←","message":{…}}            a message the server wrote to stdout
 *
 * Client lines may carry a `note` explaining why the client sent them.
 */

export const CLIENT_TO_SERVER = '→';
export const SERVER_TO_CLIENT = '←';

export type TranscriptDirection = typeof CLIENT_TO_SERVER | typeof SERVER_TO_CLIENT;

export type WireMessage = Record<string, unknown>;

export type TranscriptLine =
  | { direction: typeof CLIENT_TO_SERVER; message: WireMessage; note?: string }
  | { direction: typeof CLIENT_TO_SERVER; raw: string; note?: string }
  | { direction: typeof SERVER_TO_CLIENT; message: WireMessage };

export function formatTranscript(lines: readonly TranscriptLine[]): string {
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a transcript file; throws naming the first line that breaks the format. */
export function parseTranscript(text: string): TranscriptLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const value: unknown = JSON.parse(line);
      const where = `transcript line ${index + 1}`;
      if (!isObject(value)) throw new Error(`${where} is not an object`);
      const { direction } = value;
      if (direction === SERVER_TO_CLIENT) {
        if (!isObject(value.message) || 'raw' in value || 'note' in value) {
          throw new Error(`${where}: a server line has exactly one "message" object`);
        }
        return { direction, message: value.message };
      }
      if (direction !== CLIENT_TO_SERVER) throw new Error(`${where}: unknown direction ${String(direction)}`);
      const note = typeof value.note === 'string' ? { note: value.note } : {};
      if (isObject(value.message) && !('raw' in value)) return { direction, message: value.message, ...note };
      if (typeof value.raw === 'string' && !('message' in value))
        return { direction, raw: value.raw, ...note };
      throw new Error(`${where}: a client line has either a "message" object or a "raw" string`);
    });
}
