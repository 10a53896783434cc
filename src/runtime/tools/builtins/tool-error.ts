/** Built-in tool failures and their model-visible content (docs/spec/runtime.md §10.2). */
import type { ToolOutput } from '../types';

/**
 * A failure a built-in reports to the model as `status: error`. Helpers throw it so that a handler can
 * stay a straight line; {@link guardBuiltin} turns it into the result.
 */
export class BuiltinToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Extra members of the error content, after `ok`, `error` and `error_code`. */
    readonly extra: Record<string, unknown> = {},
    readonly metadata: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'BuiltinToolError';
  }
}

/** `{"ok":false,"error":…,"error_code":…}` plus extra members; `status: error`, `directive: continue`. */
export function errorOutput(
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): ToolOutput {
  return {
    type: 'result',
    result: {
      content: JSON.stringify({ ok: false, error: message, error_code: code, ...extra }),
      status: 'error',
      directive: 'continue',
      error_code: code,
      metadata,
    },
  };
}

/** Duck-typed: errors from Node's fs can come from another realm (vm contexts), failing instanceof. */
function isErrnoError(error: unknown): error is NodeJS.ErrnoException {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    typeof (error as NodeJS.ErrnoException).message === 'string'
  );
}

/**
 * Runs a handler body: {@link BuiltinToolError} becomes its error content, and an unexpected file-system
 * failure (EACCES, EISDIR, …) becomes `workspace_backend_error` because it is the workspace, not the
 * tool, that failed. Anything else is a bug and propagates (`tool_execution_failed` in the pipeline).
 */
export async function guardBuiltin(body: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof BuiltinToolError) {
      return errorOutput(error.code, error.message, error.extra, error.metadata);
    }
    if (isErrnoError(error)) {
      return errorOutput('workspace_backend_error', error.message);
    }
    throw error;
  }
}
