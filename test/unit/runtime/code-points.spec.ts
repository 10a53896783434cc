/** Code-point counting and cutting (runtime/code-points.ts): surrogate pairs are one character. */
import { codePointLength, firstCodePoints, lastCodePoints } from '../../../src/runtime/code-points';

const EMOJI = '\u{1F600}'; // two UTF-16 units, one code point

describe('code points', () => {
  it('counts a surrogate pair once and a lone surrogate as itself', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength(`a${EMOJI}é`)).toBe(3);
    expect(codePointLength('\ud83d')).toBe(1);
    expect(codePointLength('\ude00x')).toBe(2);
  });

  it('cuts the first code points without splitting a pair', () => {
    expect(firstCodePoints(`a${EMOJI}b`, 2)).toBe(`a${EMOJI}`);
    expect(firstCodePoints(`a${EMOJI}b`, 1)).toBe('a');
    expect(firstCodePoints('abc', 10)).toBe('abc');
    expect(firstCodePoints('abc', 0)).toBe('');
  });

  it('cuts the last code points without splitting a pair', () => {
    expect(lastCodePoints(`a${EMOJI}b`, 2)).toBe(`${EMOJI}b`);
    expect(lastCodePoints(`${EMOJI}`, 1)).toBe(EMOJI);
    expect(lastCodePoints('abc', 10)).toBe('abc');
    expect(lastCodePoints('abc', 0)).toBe('');
  });

  it('agrees with spreading the string into characters', () => {
    const text = `${'x'.repeat(150)}${EMOJI.repeat(80)}tail`;
    const characters = [...text];
    expect(codePointLength(text)).toBe(characters.length);
    expect(firstCodePoints(text, 200)).toBe(characters.slice(0, 200).join(''));
    expect(lastCodePoints(text, 60)).toBe(characters.slice(-60).join(''));
  });
});
