/**
 * The guides' code samples (docs/examples/*.ts) compile against the package's public surface. They
 * import `vv-agent-app-server` as a consumer would; docs/examples/tsconfig.json maps that name to
 * src/index.ts (and `vv-agent-app-server/dist/*` to src/*), so a renamed export or a changed
 * signature fails this test instead of silently rotting the guides.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

const EXAMPLES_DIR = resolve(__dirname, '../../../docs/examples');

function loadProgram(): { program: ts.Program; fileNames: string[] } {
  const configPath = join(EXAMPLES_DIR, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  return { program: ts.createProgram(parsed.fileNames, parsed.options), fileNames: parsed.fileNames };
}

describe('docs/examples', () => {
  jest.setTimeout(60_000);

  it('type-checks every example against the package sources without a diagnostic', () => {
    const { program, fileNames } = loadProgram();
    const examples = readdirSync(EXAMPLES_DIR)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(EXAMPLES_DIR, name));
    expect(examples.length).toBeGreaterThan(5);
    expect(fileNames.map((name) => resolve(name)).sort()).toEqual(examples.sort());

    const diagnostics = ts.getPreEmitDiagnostics(program);
    const text = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => process.cwd(),
      getNewLine: () => '\n',
    });
    expect(text).toBe('');
  });
});
