import { createHash } from 'node:crypto';
import { exposedToolName, exposedToolNames } from '../../../../../src/runtime/tools/mcp/exposed-name';

describe('MCP exposed tool names (docs/spec/mcp.md §3)', () => {
  it('prefixes and sanitizes', () => {
    expect(exposedToolName('fs', 'read_file')).toBe('mcp__fs__read_file');
    expect(exposedToolName('fs', 'read.file v2')).toBe('mcp__fs__read_file_v2');
  });

  it('cuts names over 64 characters to 55 + _ + 8 hex of the SHA-256 of the full sanitized name', () => {
    const tool = 'x'.repeat(70);
    const full = `mcp__srv__${tool}`;
    const digest = createHash('sha256').update(full).digest('hex').slice(0, 8);
    const name = exposedToolName('srv', tool);
    expect(name).toBe(`${full.slice(0, 55)}_${digest}`);
    expect(name).toHaveLength(64);
  });

  it('keeps a name of exactly 64 characters', () => {
    const tool = 'y'.repeat(64 - 'mcp__srv__'.length);
    expect(exposedToolName('srv', tool)).toBe(`mcp__srv__${tool}`);
  });

  it('gives the later of two colliding tools the hash form', () => {
    const names = exposedToolNames('s', ['a.b', 'a_b'], new Set());
    expect(names[0]).toBe('mcp__s__a_b');
    expect(names[1]).toMatch(/^mcp__s__a_b_[0-9a-f]{8}$/);
  });
});
