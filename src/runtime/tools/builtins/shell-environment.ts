/**
 * The environment of a `bash` command (docs/spec/runtime.md §10.6 v1.1): the server's own minus every variable
 * whose name looks like a secret or belongs to vv-agent itself, so that an approved command cannot
 * read credentials the server was started with.
 */

const WITHHELD_NAME = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL|^VV_AGENT_/i;
/**
 * A non-interactive bash sources `$BASH_ENV` (and sh mode `$ENV`) even with `--norc`: a file named
 * there would run before every command, so these go too.
 */
const STARTUP_FILE_VARIABLES: ReadonlySet<string> = new Set(['BASH_ENV', 'ENV']);

export function isWithheldVariable(name: string): boolean {
  return WITHHELD_NAME.test(name) || STARTUP_FILE_VARIABLES.has(name);
}

export function commandEnvironment(
  source: NodeJS.ProcessEnv,
  additions: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && !isWithheldVariable(name)) env[name] = value;
  }
  return { ...env, ...additions };
}
