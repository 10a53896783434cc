/**
 * The runtime's own tools register `trusted` (docs/spec/runtime.md §9.3 compile check skipped, compiled on
 * first use): this suite is the check they skip, and pins when each origin compiles.
 */
import {
  closeSchema,
  compileArgumentSchema,
  DEFAULT_PARAMETERS,
} from '../../../../src/runtime/tools/argument-schema';
import { allBuiltinTools } from '../../../../src/runtime/tools/builtin-tool-catalog';
import { askUserTool } from '../../../../src/runtime/tools/control/ask-user';
import { taskFinishTool } from '../../../../src/runtime/tools/control/task-finish';
import { ToolRegistry } from '../../../../src/runtime/tools/tool-registry';
import type { ToolDefinition } from '../../../../src/runtime/tools/types';

const RUNTIME_TOOLS = [taskFinishTool, askUserTool, ...allBuiltinTools()];

function tool(name: string, parameters: Record<string, unknown>): ToolDefinition {
  return { name, description: name, parameters, handler: () => Promise.reject(new Error('not called')) };
}

// A non-string `title` compiles without the meta-schema check and fails with it.
const META_INVALID = { type: 'object', properties: { a: { type: 'string', title: 5 } } };

describe('runtime tool schemas', () => {
  it.each(RUNTIME_TOOLS.map((definition) => [definition.name, definition] as const))(
    '%s passes the draft 2020-12 meta-schema check',
    (_name, definition) => {
      // A fresh closed copy, so no validator cached for the registry's copy answers instead.
      expect(() =>
        compileArgumentSchema(closeSchema(definition.parameters ?? DEFAULT_PARAMETERS)),
      ).not.toThrow();
    },
  );

  it('a schema the meta-schema rejects fails with checked and compiles with trusted', () => {
    expect(() => compileArgumentSchema(closeSchema(META_INVALID))).toThrow(
      /^invalid tool parameters schema: schema is invalid: data\/properties\/a\/title must be string/,
    );
    expect(() => compileArgumentSchema(closeSchema(META_INVALID), 'trusted')).not.toThrow();
  });

  it('a declared (checked) tool with a bad schema fails its registration', () => {
    const registry = new ToolRegistry();
    expect(() =>
      registry.register(tool('odd', { type: 'object', properties: { a: { type: 'nonsense' } } })),
    ).toThrow(/^invalid tool parameters schema: /);
    expect(registry.get('odd')).toBeUndefined();
  });

  it('a trusted tool compiles on its first validation, not at registration', () => {
    const registry = new ToolRegistry();
    registry.register(tool('later', { type: 'object', properties: { a: { type: 'nonsense' } } }), 'trusted');
    const registered = registry.get('later');
    expect(registered).toBeDefined();
    expect(() => registered?.validate({})).toThrow(/^invalid tool parameters schema: /);
  });

  it('a trusted tool validates arguments as a checked one does', () => {
    const registry = new ToolRegistry();
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    registry.register(tool('trusted_one', parameters), 'trusted');
    registry.register(tool('checked_one', parameters));
    for (const name of ['trusted_one', 'checked_one']) {
      const validate = registry.get(name)?.validate;
      expect(validate?.({ path: 'a' })).toEqual([]);
      expect(validate?.({ path: 1, extra: true })).toEqual([
        { instance_path: '', schema_path: '/additionalProperties', rule: 'additionalProperties' },
        { instance_path: '/path', schema_path: '/properties/path/type', rule: 'type' },
      ]);
    }
  });
});
