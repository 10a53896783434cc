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
