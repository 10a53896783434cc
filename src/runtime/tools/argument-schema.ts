/** Closing and validating tool argument schemas (docs/spec/runtime.md §9.3). */
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './types';

export const DEFAULT_PARAMETERS: JsonSchema = { type: 'object', properties: {}, required: [] };

export interface ArgumentIssue {
  instance_path: string;
  schema_path: string;
  rule: string;
}

export type ArgumentValidator = (args: Record<string, unknown>) => ArgumentIssue[];

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Returns a deep copy in which every object (sub)schema without `additionalProperties` gets
 * `additionalProperties: false`. The walk follows schema keywords only, so literal data under
 * `const`, `enum`, `default` or `examples` is never altered.
 */
export function closeSchema(schema: JsonSchema): JsonSchema {
  const closed: JsonSchema = { ...schema };
  for (const keyword of SCHEMA_KEYWORDS) {
    if (isPlainObject(closed[keyword])) closed[keyword] = closeSchema(closed[keyword] as JsonSchema);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = closed[keyword];
    if (!isPlainObject(map)) continue;
    closed[keyword] = Object.fromEntries(
      Object.entries(map).map(([name, sub]) => [name, isPlainObject(sub) ? closeSchema(sub) : sub]),
    );
  }
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = closed[keyword];
    if (!Array.isArray(list)) continue;
    closed[keyword] = list.map((sub: unknown) => (isPlainObject(sub) ? closeSchema(sub) : sub));
  }
  if (closed.type === 'object' && !('additionalProperties' in closed)) closed.additionalProperties = false;
  return closed;
}

/**
 * How a schema is compiled. `checked` (the default) first validates it against the 2020-12
 * meta-schema, which Ajv compiles on its first use (~70 ms). `trusted` skips that check: only for
 * the runtime's own tool schemas, which a unit test checks against the meta-schema instead.
 */
export type SchemaOrigin = 'checked' | 'trusted';

/** Ajv loads with the first schema it compiles: its ~80 modules are not part of every start-up. */
function loadAjv2020(): typeof Ajv2020 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load, see above
  return (require('ajv/dist/2020') as { default: typeof Ajv2020 }).default;
}

/** A trusted instance also leaves the meta-schemas out (`meta: false`): nothing on it refers to them. */
function newAjv(origin: SchemaOrigin): Ajv2020 {
  const checked = origin === 'checked';
  const Ajv = loadAjv2020();
  return new Ajv({
    allErrors: true,
    strict: false,
    logger: false,
    validateSchema: checked,
    meta: checked,
  });
}
/**
 * One shared validator instance per origin, made on its first compile: building one (vocabularies
 * and the 2020-12 meta-schema) costs ~15 ms, which would otherwise land on every start-up before
 * the first request. Compiled functions are cached per schema object below.
 */
const sharedAjv: Partial<Record<SchemaOrigin, Ajv2020>> = {};
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function toIssue(error: ErrorObject): ArgumentIssue {
  return {
    instance_path: error.instancePath,
    schema_path: error.schemaPath.startsWith('#') ? error.schemaPath.slice(1) : error.schemaPath,
    rule: error.keyword,
  };
}

function compareIssues(a: ArgumentIssue, b: ArgumentIssue): number {
  for (const key of ['instance_path', 'schema_path', 'rule'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}

/** Sorted by (instance_path, schema_path, rule), duplicates removed. */
export function normalizeIssues(issues: ArgumentIssue[]): ArgumentIssue[] {
  const sorted = [...issues].sort(compareIssues);
  return sorted.filter((issue, index) => index === 0 || compareIssues(sorted[index - 1], issue) !== 0);
}

/** Compiles an already closed schema; throws `invalid tool parameters schema: <detail>`. */
export function compileArgumentSchema(
  closedSchema: JsonSchema,
  origin: SchemaOrigin = 'checked',
): ArgumentValidator {
  let validate = compiled.get(closedSchema);
  if (!validate) {
    try {
      // A schema with its own `$id` gets a private instance, so two tools may reuse an id.
      const compiler =
        typeof closedSchema.$id === 'string' ? newAjv(origin) : (sharedAjv[origin] ??= newAjv(origin));
      validate = compiler.compile(closedSchema);
      // The compiled function stays usable; dropping Ajv's cache entry keeps per-turn tools from leaking.
      compiler.removeSchema(closedSchema);
    } catch (error) {
      throw new Error(
        `invalid tool parameters schema: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    compiled.set(closedSchema, validate);
  }
  const fn = validate;
  return (args) => (fn(args) ? [] : normalizeIssues((fn.errors ?? []).map(toIssue)));
}

/**
 * A validator that compiles `closedSchema` on its first call: a run registers every built-in tool,
 * and compiling them all up front made a process's first turn ~100 ms slower although most runs
 * call few of them.
 */
export function lazyArgumentValidator(closedSchema: JsonSchema, origin: SchemaOrigin): ArgumentValidator {
  let validate: ArgumentValidator | undefined;
  return (args) => (validate ??= compileArgumentSchema(closedSchema, origin))(args);
}
