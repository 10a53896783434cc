/** UTF-8 decoding, hashing and code-point helpers shared by the file tools. */
import { createHash } from 'node:crypto';
import { codePointLength, firstCodePoints, lastCodePoints } from '../../code-points';

export { codePointLength, firstCodePoints, lastCodePoints };

export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface DecodedText {
  /** Text without the BOM. */
  text: string;
  hasBom: boolean;
}

/** Strict UTF-8 decoding with the BOM skipped; null when the bytes are not valid UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array): DecodedText | null {
  const hasBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    // ignoreBOM keeps the decoder from stripping it on its own; we do that explicitly above.
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(
      hasBom ? bytes.subarray(3) : bytes,
    );
    return { text, hasBom };
  } catch {
    return null;
  }
}

export function encodeUtf8(text: string, withBom: boolean): Buffer {
  const body = Buffer.from(text, 'utf8');
  return withBom ? Buffer.concat([UTF8_BOM, body]) : body;
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Lines split on `\r\n`, `\n` or `\r`; a final line terminator does not start an empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Extension as `path.suffix` would report it: `.ts` for `a.ts`, `` for `.bashrc` or `a.`. */
export function fileSuffix(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot) : '';
}
