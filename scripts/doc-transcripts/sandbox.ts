/**
 * The temp directory a recorded server runs in: a VERSION "2" settings file, the scripted model file,
 * a small workspace, and the sqlite store. Paths handed to the server are relative to this
 * directory (the server's cwd), so the recorded transcripts show `./workspace`, not a temp path.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelStep } from './scenario';
import type { SessionLaunch } from './transcript-session';

export const BACKEND = 'demo';
export const MODEL = 'demo-model';

/** A settings file whose endpoint is never contacted: the scripted model replaces the HTTP client. */
export const SETTINGS_DOCUMENT = {
  VERSION: '2',
  endpoints: [{ id: 'demo-local', api_base: 'http://127.0.0.1:9/v1', api_key: 'sk-not-used' }],
  backends: {
    [BACKEND]: {
      models: {
        [MODEL]: {
          id: MODEL,
          display_name: 'Demo Model',
          endpoints: ['demo-local'],
          context_length: 128000,
          function_call_available: true,
        },
      },
    },
  },
};

const WORKSPACE_FILES: Record<string, string> = {
  'README.md': '# demo\n\nA tiny demo project used by the protocol transcripts.\n',
  'src/index.ts': "export { add } from './math';\n",
  'src/math.ts': 'export const add = (a: number, b: number): number => a + b;\n',
  'build/app.js': 'exports.add = (a, b) => a + b;\n',
};

/** The command line every scenario starts with (relative paths: the server runs in the sandbox). */
export function baseCliArgs(): string[] {
  return [
    'app-server',
    '--listen',
    'stdio',
    '--settings',
    './settings.json',
    '--backend',
    BACKEND,
    '--model',
    MODEL,
    '--store',
    './store.sqlite',
  ];
}

export const SCRIPT_FILE = './model-script.json';

export class Sandbox {
  private constructor(readonly root: string) {}

  static create(modelSteps: readonly ModelStep[]): Sandbox {
    const root = mkdtempSync(join(tmpdir(), 'vv-doc-transcript-'));
    writeFileSync(join(root, 'settings.json'), JSON.stringify(SETTINGS_DOCUMENT, null, 2));
    writeFileSync(join(root, SCRIPT_FILE), JSON.stringify({ steps: modelSteps }, null, 2));
    for (const [path, text] of Object.entries(WORKSPACE_FILES)) {
      const target = join(root, 'workspace', path);
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, text);
    }
    return new Sandbox(root);
  }

  path(relative: string): string {
    return join(this.root, relative);
  }

  launch(mainPath: string, extraArgs: readonly string[]): SessionLaunch {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      VV_AGENT_HOME: join(this.root, 'home'),
      VV_AGENT_SCRIPTED_MODEL_FILE: SCRIPT_FILE,
    };
    // Default stderr threshold: only warnings and errors.
    delete env.VV_AGENT_LOG_LEVEL;
    return { mainPath, args: [...baseCliArgs(), ...extraArgs], cwd: this.root, env };
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
