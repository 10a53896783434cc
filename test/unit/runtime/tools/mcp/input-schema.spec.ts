import { mcpParameters } from '../../../../../src/runtime/tools/mcp/input-schema';
import { ToolRegistry } from '../../../../../src/runtime/tools/tool-registry';

describe('mcpParameters (docs/spec/mcp.md §3)', () => {
  it('drops the draft-07 dialect tag and validates when the schema compiles', () => {
    const result = mcpParameters({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    expect(result).toEqual({
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      validateArguments: true,
    });
  });

  it('passes a schema that does not compile on unvalidated, still visible to the model', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/nowhere' } } };
    const result = mcpParameters(broken);
    expect(result).toEqual({ parameters: broken, validateArguments: false });
    const registry = new ToolRegistry();
    registry.register({
      name: 'mcp__s__t',
      description: 'd',
      ...result,
      handler: () => Promise.resolve({ type: 'text', text: '' }),
    });
    expect(registry.get('mcp__s__t')?.validate({ anything: 1 })).toEqual([]);
    expect(registry.specs(['mcp__s__t'])[0].function.parameters).toMatchObject({ properties: { a: {} } });
  });
});
