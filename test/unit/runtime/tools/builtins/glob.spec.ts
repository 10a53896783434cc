import { compileGlob } from '../../../../../src/runtime/tools/builtins/glob';

describe('compileGlob', () => {
  it.each([
    ['**/*', 'a.txt', true],
    ['**/*', 'a/b/c.txt', true],
    ['**/*.py', 'x.py', true],
    ['**/*.py', 'pkg/sub/x.py', true],
    ['**/*.py', 'pkg/x.pyc', false],
    ['*.py', 'x.py', true],
    ['*.py', 'pkg/x.py', false],
    ['src/**', 'src/a/b.ts', true],
    ['src/**', 'lib/a.ts', false],
    ['src/**/test/*.ts', 'src/test/a.ts', true],
    ['src/**/test/*.ts', 'src/a/b/test/a.ts', true],
    ['src/*/x.ts', 'src/a/b/x.ts', false],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['file?.txt', 'file/.txt', false],
    ['[ab].md', 'a.md', true],
    ['[ab].md', 'c.md', false],
    ['[!ab].md', 'c.md', true],
    ['[a-c]x', 'bx', true],
    ['**/*.{ts,tsx}', 'ui/App.tsx', true],
    ['**/*.{ts,tsx}', 'ui/App.jsx', false],
    ['{src,test}/**/*.ts', 'test/a/b.ts', true],
    ['./docs/*.md', 'docs/a.md', true],
    ['a.b', 'axb', false],
    ['(x)+', '(x)+', true],
    ['\\*.txt', '*.txt', true],
    ['\\*.txt', 'a.txt', false],
    ['[unclosed', '[unclosed', true],
  ])('%j matches %j: %s', (pattern, candidate, expected) => {
    expect(compileGlob(pattern)(candidate)).toBe(expected);
  });
});

describe('compileGlob without exponential backtracking (issue 12)', () => {
  // A backtracking regex takes minutes on these; an automaton simulation takes microseconds.
  it('matches fourteen `*` against a 200-character name that almost fits', () => {
    const matcher = compileGlob(`${'*'.repeat(14)}x`);
    expect(matcher('a'.repeat(200))).toBe(false);
    expect(matcher(`${'a'.repeat(200)}x`)).toBe(true);
  });

  it('handles many `**` segments and stars around literals', () => {
    expect(compileGlob(`${'**/'.repeat(12)}*a*a*a*a*a*a*b`)(`${'x/'.repeat(30)}${'a'.repeat(200)}`)).toBe(
      false,
    );
    expect(compileGlob('**/a*/**/b')('x/a1/y/z/b')).toBe(true);
  });

  it('rejects a glob whose {…} alternatives multiply beyond the bound', () => {
    expect(() => compileGlob('{a,b}'.repeat(11))).toThrow('alternatives');
    expect(compileGlob('{a,b}'.repeat(10))('ab'.repeat(5))).toBe(true);
  });

  it.each([
    ['[a-]', '-', true],
    ['[]]', ']', true],
    ['[!a]', '/', false],
    ['**/', 'a/', true],
    ['a/**', 'a/', true],
    ['{a,{b,c}d}', 'cd', true],
    ['[{]x', '{x', true],
  ])('%j matches %j: %s', (pattern, candidate, expected) => {
    expect(compileGlob(pattern)(candidate)).toBe(expected);
  });
});
