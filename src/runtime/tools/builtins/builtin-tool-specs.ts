/**
 * Built-in tool specs exactly as docs/spec/runtime.md §10.1 sends them to the model (before the registry closes
 * the schemas). Key order matters: it is the order of the spec text.
 */
import type { BuiltinToolName } from '../types';

export interface BuiltinToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

/** Frozen: callers that need to mutate (e.g. close the schema) take a copy, as builtinTool() does. */
export const BUILTIN_TOOL_SPECS: Readonly<Record<BuiltinToolName, BuiltinToolSpec>> = deepFreeze({
  find_files: {
    name: 'find_files',
    description:
      'List workspace files with path, glob, visibility, pagination, and sorting controls. Results are bounded and report truncation/count hints; paths remain subject to workspace policy.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Optional search root path.' },
        glob: { type: 'string', description: 'Optional glob filter such as `**/*.py`.' },
        include_hidden: { type: 'boolean', description: 'Whether hidden files and dotfiles are included.' },
        include_ignored: {
          type: 'boolean',
          description:
            'When listing workspace root, include files under common dependency/cache directories.',
        },
        include_sensitive: {
          type: 'boolean',
          description:
            'Include files whose paths look like secrets, credentials, keys, tokens, or private config.',
        },
        sort: { type: 'string', enum: ['modified_desc', 'path_asc'], description: 'Sort order.' },
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Number of matching file paths to skip before returning results.',
        },
        max_results: { type: 'integer', description: 'Maximum number of file paths returned in one call.' },
        scan_limit: {
          type: 'integer',
          description: 'Maximum files scanned before stopping early to keep listing fast.',
        },
      },
      required: [],
    },
  },
  file_info: {
    name: 'file_info',
    description:
      'Inspect workspace path metadata without reading file contents. Returns normalized type, size, modified time, and suffix.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Workspace-relative path (absolute paths must lie inside the workspace).',
        },
      },
      required: ['path'],
    },
  },
  read_file: {
    name: 'read_file',
    description:
      'Read bounded UTF-8 text from a workspace path. Use a line range for targeted reads or the returned cursor to continue an oversized read; stale cursors are rejected if the source changes.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Workspace path to read.' },
        start_line: {
          type: 'integer',
          minimum: 1,
          description: 'Optional 1-based first line; incompatible with cursor.',
        },
        end_line: {
          type: 'integer',
          minimum: 1,
          description: 'Optional 1-based inclusive last line; incompatible with cursor.',
        },
        show_line_numbers: {
          type: 'boolean',
          description: 'Prefix returned lines with source line numbers.',
        },
        cursor: {
          type: 'object',
          description: 'Continuation state returned by a previous read of this path.',
          properties: {
            kind: { type: 'string', const: 'read_file' },
            path: { type: 'string', minLength: 1 },
            offset_chars: { type: 'integer', minimum: 0 },
            sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          },
          required: ['kind', 'offset_chars', 'path', 'sha256'],
          additionalProperties: false,
        },
      },
      required: ['path'],
    },
  },
  write_file: {
    name: 'write_file',
    description:
      'Create, overwrite, or append text in the workspace. Overwrite is the default; use append and newline controls only when preserving existing content is intentional.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Workspace-relative path (absolute paths must lie inside the workspace).',
        },
        content: {
          type: 'string',
          description:
            'The complete file body for overwrite mode, or the exact block to append when `append=true`.',
        },
        append: { type: 'boolean', description: 'Set true to append instead of overwrite.' },
        leading_newline: { type: 'boolean', description: 'Add a leading newline when appending.' },
        trailing_newline: { type: 'boolean', description: 'Add a trailing newline when appending.' },
      },
      required: ['path', 'content'],
    },
  },
  edit_file: {
    name: 'edit_file',
    description:
      'Replace exact text in a workspace file using the current read/write baseline. The match must be unique unless replace_all is true, and changed files or stale baselines are rejected.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Workspace-relative path (absolute paths must lie inside the workspace).',
        },
        old_string: { type: 'string', description: 'Exact source text to replace.' },
        new_string: { type: 'string', description: 'Replacement text.' },
        replace_all: {
          type: 'boolean',
          description: 'Replace all matches when true after confirming every match is intended.',
        },
      },
      required: ['path', 'old_string', 'new_string'],
    },
  },
  search_files: {
    name: 'search_files',
    description:
      'Search workspace text with regex and smart-case by default; set literal for exact text. Scope with path, glob, or type. Results are bounded and return truncation/pagination metadata.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regex pattern, or exact text when literal is true.' },
        path: { type: 'string', description: 'Optional search root or single file path.' },
        glob: { type: 'string', description: 'Optional file glob filter such as `**/*.rs`.' },
        include_hidden: { type: 'boolean', description: 'Whether hidden files and dotfiles are included.' },
        include_ignored: {
          type: 'boolean',
          description:
            'When searching workspace root, include files under common dependency/cache directories.',
        },
        include_sensitive: {
          type: 'boolean',
          description:
            'Include files whose paths look like secrets, credentials, keys, tokens, or private config.',
        },
        output_mode: {
          type: 'string',
          enum: ['files_with_matches', 'content', 'count'],
          description: 'files_with_matches, content, or count.',
        },
        literal: {
          type: 'boolean',
          description: 'Search for the exact pattern text instead of interpreting it as a regex.',
        },
        b: { type: 'integer', description: 'Lines before each match.' },
        a: { type: 'integer', description: 'Lines after each match.' },
        c: { type: 'integer', description: 'Context lines before and after each match.' },
        n: { type: 'boolean', description: 'Whether to include line numbers in content output.' },
        type: { type: 'string', description: 'File type shortcut such as py, js, ts, md, or json.' },
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Number of result rows or entries to skip before returning results.',
        },
        head_limit: {
          type: 'integer',
          minimum: 0,
          description: 'Cap output to the first N rows or entries.',
        },
        multiline: { type: 'boolean', description: 'Enable multiline regex mode.' },
        case_sensitive: { type: 'boolean', description: 'Explicitly override smart-case behavior.' },
      },
      required: ['pattern'],
    },
  },
  todo_write: {
    name: 'todo_write',
    description:
      'Replace the current structured TODO list. Send the complete list, keep at most one item in_progress, and use stable ids when updating existing items.',
    parameters: {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          description: 'Complete TODO list replacement payload.',
          items: {
            type: 'object',
            properties: {
              id: {
                type: 'string',
                description:
                  'Existing TODO id for update; omit for new item. When omitted, a generated 8-character id is assigned.',
              },
              title: {
                type: 'string',
                description:
                  'TODO title. Make it actionable and observable, so progress can be verified without reading hidden context.',
              },
              status: {
                type: 'string',
                enum: ['pending', 'in_progress', 'completed'],
                description:
                  'TODO status: `pending` for not started, `in_progress` for the single active item, or `completed` after verification.',
              },
              priority: {
                type: 'string',
                enum: ['low', 'medium', 'high'],
                description:
                  'TODO priority: `high` for blockers or user-critical work, `medium` for normal required work, `low` for cleanup or optional follow-up.',
              },
            },
            required: ['title', 'status', 'priority'],
          },
        },
      },
      required: ['todos'],
    },
  },
  bash: {
    name: 'bash',
    description:
      'Run a command in the configured workspace shell. Prefer specialized file tools for direct file work. Oversized terminal output returns a head/tail preview and a workspace artifact path for complete recovery.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'Command to execute through the configured shell.' },
        exec_dir: {
          type: 'string',
          description: 'Execution directory, workspace-relative (default: the workspace root).',
        },
        timeout: { type: 'integer', description: 'Timeout in seconds, 1-600 (default 300).' },
        stdin: {
          type: 'string',
          description:
            'Optional stdin content for interactive prompts, confirmation text, heredoc-style input, or commands that read from standard input.',
        },
        auto_confirm: {
          type: 'boolean',
          description: 'Pipe yes to the command for non-interactive confirmation prompts.',
        },
      },
      required: ['command'],
    },
  },
});
