import {
  isShownAsToolCall,
  toolKind,
  toolLocations,
  toolTitle,
} from '../../../../src/protocols/acp/tool-presentation';

describe('tool presentation (docs/spec/acp.md §3)', () => {
  it.each([
    ['read_file', 'read'],
    ['file_info', 'read'],
    ['write_file', 'edit'],
    ['edit_file', 'edit'],
    ['find_files', 'search'],
    ['search_files', 'search'],
    ['bash', 'execute'],
    ['everything__echo', 'other'],
    ['todo_write', 'other'],
  ])('%s is kind %s', (tool, kind) => {
    expect(toolKind(tool)).toBe(kind);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['read_file', { path: 'src/app.ts' }, 'Read src/app.ts'],
    ['bash', { command: 'npm test' }, 'Run npm test'],
    ['bash', { command: 'echo a\n  && echo b' }, 'Run echo a && echo b'],
    ['write_file', { path: 'a.txt', content: 'x' }, 'Write a.txt'],
    ['write_file', { path: 'a.txt', content: 'x', append: true }, 'Append to a.txt'],
    ['edit_file', { path: 'a.txt' }, 'Edit a.txt'],
    ['search_files', { pattern: 'TODO' }, 'Search "TODO"'],
    ['find_files', { glob: '**/*.ts', path: 'src' }, 'Find **/*.ts in src'],
    ['everything__echo', { message: 'hi' }, 'everything__echo'],
  ])('%s %j is titled %j', (tool, args, title) => {
    expect(toolTitle(tool, args)).toBe(title);
  });

  it('cuts a long title to 120 code points with an ellipsis', () => {
    const title = toolTitle('bash', { command: 'x'.repeat(300) });
    expect([...title]).toHaveLength(120);
    expect(title.endsWith('…')).toBe(true);
  });

  it('locates file tools at absolute paths under the session cwd, with the start line of a ranged read', () => {
    expect(toolLocations('read_file', { path: 'src/a.ts' }, '/work/p')).toEqual([
      { path: '/work/p/src/a.ts' },
    ]);
    expect(toolLocations('read_file', { path: 'a.ts', start_line: 40 }, '/w')).toEqual([
      { path: '/w/a.ts', line: 40 },
    ]);
    expect(toolLocations('write_file', { path: '/abs/b.txt' }, '/w')).toEqual([{ path: '/abs/b.txt' }]);
    expect(toolLocations('bash', { command: 'ls' }, '/w')).toBeUndefined();
    expect(toolLocations('read_file', { path: 'a.ts' }, null)).toBeUndefined();
  });

  it('does not show task_finish and ask_user as tool calls', () => {
    expect(isShownAsToolCall('task_finish')).toBe(false);
    expect(isShownAsToolCall('ask_user')).toBe(false);
    expect(isShownAsToolCall('bash')).toBe(true);
  });
});
