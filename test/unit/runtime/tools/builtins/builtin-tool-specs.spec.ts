import { builtinTool, BUILTIN_TOOL_SPECS } from '../../../../../src/runtime/tools/builtins/index';
import { BUILTIN_TOOL_NAMES } from '../../../../../src/runtime/tools/types';

/** The §10.1 JSON lines of the workspace built-ins, verbatim from runtime.md. */
const SPEC_LINES = [
  '{"name":"find_files","description":"List workspace files with path, glob, visibility, pagination, and sorting controls. Results are bounded and report truncation/count hints; paths remain subject to workspace policy.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"Optional search root path."},"glob":{"type":"string","description":"Optional glob filter such as `**/*.py`."},"include_hidden":{"type":"boolean","description":"Whether hidden files and dotfiles are included."},"include_ignored":{"type":"boolean","description":"When listing workspace root, include files under common dependency/cache directories."},"include_sensitive":{"type":"boolean","description":"Include files whose paths look like secrets, credentials, keys, tokens, or private config."},"sort":{"type":"string","enum":["modified_desc","path_asc"],"description":"Sort order."},"offset":{"type":"integer","minimum":0,"description":"Number of matching file paths to skip before returning results."},"max_results":{"type":"integer","description":"Maximum number of file paths returned in one call."},"scan_limit":{"type":"integer","description":"Maximum files scanned before stopping early to keep listing fast."}},"required":[]}}',
  '{"name":"file_info","description":"Inspect workspace path metadata without reading file contents. Returns normalized type, size, modified time, and suffix.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"Workspace-relative path (absolute paths must lie inside the workspace)."}},"required":["path"]}}',
  '{"name":"read_file","description":"Read bounded UTF-8 text from a workspace path. Use a line range for targeted reads or the returned cursor to continue an oversized read; stale cursors are rejected if the source changes.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"Workspace path to read."},"start_line":{"type":"integer","minimum":1,"description":"Optional 1-based first line; incompatible with cursor."},"end_line":{"type":"integer","minimum":1,"description":"Optional 1-based inclusive last line; incompatible with cursor."},"show_line_numbers":{"type":"boolean","description":"Prefix returned lines with source line numbers."},"cursor":{"type":"object","description":"Continuation state returned by a previous read of this path.","properties":{"kind":{"type":"string","const":"read_file"},"path":{"type":"string","minLength":1},"offset_chars":{"type":"integer","minimum":0},"sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"}},"required":["kind","offset_chars","path","sha256"],"additionalProperties":false}},"required":["path"]}}',
  '{"name":"write_file","description":"Create, overwrite, or append text in the workspace. Overwrite is the default; use append and newline controls only when preserving existing content is intentional.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"Workspace-relative path (absolute paths must lie inside the workspace)."},"content":{"type":"string","description":"The complete file body for overwrite mode, or the exact block to append when `append=true`."},"append":{"type":"boolean","description":"Set true to append instead of overwrite."},"leading_newline":{"type":"boolean","description":"Add a leading newline when appending."},"trailing_newline":{"type":"boolean","description":"Add a trailing newline when appending."}},"required":["path","content"]}}',
  '{"name":"edit_file","description":"Replace exact text in a workspace file using the current read/write baseline. The match must be unique unless replace_all is true, and changed files or stale baselines are rejected.","parameters":{"type":"object","properties":{"path":{"type":"string","description":"Workspace-relative path (absolute paths must lie inside the workspace)."},"old_string":{"type":"string","description":"Exact source text to replace."},"new_string":{"type":"string","description":"Replacement text."},"replace_all":{"type":"boolean","description":"Replace all matches when true after confirming every match is intended."}},"required":["path","old_string","new_string"]}}',
  '{"name":"search_files","description":"Search workspace text with regex and smart-case by default; set literal for exact text. Scope with path, glob, or type. Results are bounded and return truncation/pagination metadata.","parameters":{"type":"object","properties":{"pattern":{"type":"string","description":"Regex pattern, or exact text when literal is true."},"path":{"type":"string","description":"Optional search root or single file path."},"glob":{"type":"string","description":"Optional file glob filter such as `**/*.rs`."},"include_hidden":{"type":"boolean","description":"Whether hidden files and dotfiles are included."},"include_ignored":{"type":"boolean","description":"When searching workspace root, include files under common dependency/cache directories."},"include_sensitive":{"type":"boolean","description":"Include files whose paths look like secrets, credentials, keys, tokens, or private config."},"output_mode":{"type":"string","enum":["files_with_matches","content","count"],"description":"files_with_matches, content, or count."},"literal":{"type":"boolean","description":"Search for the exact pattern text instead of interpreting it as a regex."},"b":{"type":"integer","description":"Lines before each match."},"a":{"type":"integer","description":"Lines after each match."},"c":{"type":"integer","description":"Context lines before and after each match."},"n":{"type":"boolean","description":"Whether to include line numbers in content output."},"type":{"type":"string","description":"File type shortcut such as py, js, ts, md, or json."},"offset":{"type":"integer","minimum":0,"description":"Number of result rows or entries to skip before returning results."},"head_limit":{"type":"integer","minimum":0,"description":"Cap output to the first N rows or entries."},"multiline":{"type":"boolean","description":"Enable multiline regex mode."},"case_sensitive":{"type":"boolean","description":"Explicitly override smart-case behavior."}},"required":["pattern"]}}',
  '{"name":"todo_write","description":"Replace the current structured TODO list. Send the complete list, keep at most one item in_progress, and use stable ids when updating existing items.","parameters":{"type":"object","properties":{"todos":{"type":"array","description":"Complete TODO list replacement payload.","items":{"type":"object","properties":{"id":{"type":"string","description":"Existing TODO id for update; omit for new item. When omitted, a generated 8-character id is assigned."},"title":{"type":"string","description":"TODO title. Make it actionable and observable, so progress can be verified without reading hidden context."},"status":{"type":"string","enum":["pending","in_progress","completed"],"description":"TODO status: `pending` for not started, `in_progress` for the single active item, or `completed` after verification."},"priority":{"type":"string","enum":["low","medium","high"],"description":"TODO priority: `high` for blockers or user-critical work, `medium` for normal required work, `low` for cleanup or optional follow-up."}},"required":["title","status","priority"]}}},"required":["todos"]}}',
  '{"name":"bash","description":"Run a command in the configured workspace shell. Prefer specialized file tools for direct file work. Oversized terminal output returns a head/tail preview and a workspace artifact path for complete recovery.","parameters":{"type":"object","properties":{"command":{"type":"string","description":"Command to execute through the configured shell."},"exec_dir":{"type":"string","description":"Execution directory, workspace-relative (default: the workspace root)."},"timeout":{"type":"integer","description":"Timeout in seconds, 1-600 (default 300)."},"stdin":{"type":"string","description":"Optional stdin content for interactive prompts, confirmation text, heredoc-style input, or commands that read from standard input."},"auto_confirm":{"type":"boolean","description":"Pipe yes to the command for non-interactive confirmation prompts."}},"required":["command"]}}',
];

const EXPECTED_METADATA: Record<string, [string, string]> = {
  todo_write: ['none', 'supported'],
  find_files: ['read', 'supported'],
  file_info: ['read', 'supported'],
  read_file: ['read', 'supported'],
  search_files: ['read', 'supported'],
  write_file: ['write', 'unsupported'],
  edit_file: ['write', 'unsupported'],
  bash: ['execute', 'unsupported'],
};

describe('BUILTIN_TOOL_SPECS', () => {
  it('has exactly one spec per built-in name', () => {
    expect(Object.keys(BUILTIN_TOOL_SPECS).sort()).toEqual([...BUILTIN_TOOL_NAMES].sort());
    expect(SPEC_LINES).toHaveLength(BUILTIN_TOOL_NAMES.length);
  });

  it.each(SPEC_LINES.map((line) => [JSON.parse(line).name as string, line]))(
    '%s equals the §10.1 JSON byte for byte',
    (name, line) => {
      const spec = BUILTIN_TOOL_SPECS[name as keyof typeof BUILTIN_TOOL_SPECS];
      expect(JSON.stringify(spec)).toBe(line);
    },
  );

  it('is frozen so no caller can alter what the model is sent', () => {
    expect(Object.isFrozen(BUILTIN_TOOL_SPECS.bash.parameters)).toBe(true);
    expect(Object.isFrozen(BUILTIN_TOOL_SPECS.read_file.parameters.properties)).toBe(true);
  });
});

describe('builtinTool', () => {
  it.each([...BUILTIN_TOOL_NAMES])('%s carries the spec, typed metadata and no approval hook', (name) => {
    const definition = builtinTool(name);
    const spec = BUILTIN_TOOL_SPECS[name];
    expect(definition.name).toBe(spec.name);
    expect(definition.description).toBe(spec.description);
    expect(definition.parameters).toEqual(spec.parameters);
    expect(JSON.stringify(definition.parameters)).toBe(JSON.stringify(spec.parameters));
    const [sideEffect, idempotency] = EXPECTED_METADATA[name];
    expect(definition.toolMetadata).toEqual({
      side_effect: sideEffect,
      idempotency,
      terminal: false,
      result_retention: 'archive',
      capability_tags: [],
      cost_dimensions: [],
    });
    expect(definition.needsApproval).toBeUndefined();
    expect(typeof definition.handler).toBe('function');
  });

  it('returns a fresh, mutable definition on every call', () => {
    const first = builtinTool('read_file');
    const second = builtinTool('read_file');
    expect(first).not.toBe(second);
    expect(first.parameters).not.toBe(second.parameters);
    expect(first.toolMetadata).not.toBe(second.toolMetadata);
    (first.parameters as Record<string, unknown>).additionalProperties = false;
    expect(second.parameters).not.toHaveProperty('additionalProperties');
    expect(BUILTIN_TOOL_SPECS.read_file.parameters).not.toHaveProperty('additionalProperties');
  });
});
