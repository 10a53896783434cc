/**
 * A tiny declarative vocabulary for the domain's data and the server → client half of the
 * protocol's single source (docs/spec/protocol.md §11.1): every builder returns a plain draft 2020-12 JSON
 * Schema fragment that also carries its TypeScript type, so the committed schemas, the server's
 * types (core/model/types.ts) and the typed client come from one definition. It lives in core
 * because the domain's data is defined with it; protocols compose those definitions into their
 * messages. Params (client → server) come from the class-validator DTOs instead.
 *
 * Conventions of §11.3: optional members are absent from `required`; nullable members use
 * `"type": [<type>, "null"]`. Server-sent objects are closed (`additionalProperties: false`) because
 * the spec lists their members exhaustively; opaque objects (metadata, payload, arguments) are
 * `{"type": "object"}`.
 */

/** Any JSON value: the one hand-written type, since a recursive type cannot be built from fragments. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A JSON Schema fragment as it is serialized (member order is the serialized order). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** Never present at runtime: it only carries the TypeScript type of a fragment. */
declare const VALUE_TYPE: unique symbol;

export type SchemaNode<T> = JsonSchema & { readonly [VALUE_TYPE]: T };

export type Infer<S> = S extends { readonly [VALUE_TYPE]: infer T } ? T : never;

/** Present on `$ref` fragments made by `define`: the definition the reference points at. */
export const DEFINITION = Symbol('schema definition');
const OPTIONAL = Symbol('optional member');

export interface DefinitionInfo {
  readonly name: string;
  readonly schema: JsonSchema;
}

export type Definition<T> = SchemaNode<T> & { readonly [DEFINITION]: DefinitionInfo };

export interface OptionalMember<T> {
  readonly [OPTIONAL]: SchemaNode<T>;
}

type Member = SchemaNode<unknown> | OptionalMember<unknown>;
type Members = Record<string, Member>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<M extends Members> = {
  [K in keyof M]: M[K] extends OptionalMember<unknown> ? never : K;
}[keyof M];
type OptionalKeys<M extends Members> = Exclude<keyof M, RequiredKeys<M>>;
type InferMember<X> = X extends OptionalMember<infer T> ? T : Infer<X>;

export type InferMembers<M extends Members> = Simplify<
  { [K in RequiredKeys<M>]: InferMember<M[K]> } & { [K in OptionalKeys<M>]?: InferMember<M[K]> }
>;

function node<T>(schema: JsonSchema): SchemaNode<T> {
  return schema as SchemaNode<T>;
}

/** Escape hatch for a fragment no builder expresses (e.g. a union of primitive types); `T` is trusted. */
export function fragment<T>(schema: JsonSchema): SchemaNode<T> {
  return node(schema);
}

function isOptional(member: Member): member is OptionalMember<unknown> {
  return OPTIONAL in member;
}

export function string(): SchemaNode<string> {
  return node({ type: 'string' });
}

/** Integers (timestamps, counts); TypeScript `number`, never `bigint`. */
export function integer(): SchemaNode<number> {
  return node({ type: 'integer' });
}

export function boolean(): SchemaNode<boolean> {
  return node({ type: 'boolean' });
}

export function literal<const V extends string | boolean>(value: V): SchemaNode<V> {
  return node({ const: value });
}

export function oneOfStrings<const V extends readonly string[]>(values: V): SchemaNode<V[number]> {
  return node({ type: 'string', enum: [...values] });
}

/** `"type": [<type>, "null"]`; an `enum` also gets `null`; anything else becomes `anyOf [it, null]`. */
export function nullable<T>(inner: SchemaNode<T>): SchemaNode<T | null> {
  const { type, ...rest } = inner;
  if (typeof type === 'string' && !(DEFINITION in inner)) {
    const widened: Record<string, unknown> = { type: [type, 'null'], ...rest };
    if (Array.isArray(rest.enum)) widened.enum = [...(rest.enum as unknown[]), null];
    return node(widened);
  }
  return node({ anyOf: [inner, { type: 'null' }] });
}

export function array<T>(items: SchemaNode<T>): SchemaNode<T[]> {
  return node({ type: 'array', items });
}

/** An object whose members are arbitrary JSON (metadata, payload, arguments, provider usage). */
export function jsonObject(): SchemaNode<JsonObject> {
  return node({ type: 'object' });
}

/** Any JSON value. */
export function jsonValue(): SchemaNode<JsonValue> {
  return node({});
}

/** An object used as a string-keyed map. */
export function record<T>(values: SchemaNode<T>): SchemaNode<Record<string, T>> {
  return node({ type: 'object', additionalProperties: values });
}

export function optional<T>(member: SchemaNode<T>): OptionalMember<T> {
  return { [OPTIONAL]: member };
}

export interface ObjectOptions {
  /** Client-sent objects stay open: unknown members are ignored by the server (§3.0). */
  open?: boolean;
}

/**
 * An object with members in declaration order; optional ones are omitted from `required`. Closed
 * (`additionalProperties: false`) unless `open`.
 */
export function object<const M extends Members>(
  members: M,
  options: ObjectOptions = {},
): SchemaNode<InferMembers<M>> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, member] of Object.entries(members)) {
    if (isOptional(member)) {
      properties[key] = member[OPTIONAL];
    } else {
      properties[key] = member;
      required.push(key);
    }
  }
  const schema: Record<string, unknown> = { type: 'object' };
  if (required.length > 0 || Object.keys(properties).length > 0) schema.properties = properties;
  if (required.length > 0) schema.required = required;
  if (options.open !== true) schema.additionalProperties = false;
  return node(schema);
}

/**
 * A named type: used inside other fragments it serializes as `{"$ref": "#/$defs/<name>"}` and the
 * generator collects it into the document's `$defs`.
 */
export function define<T>(name: string, schema: SchemaNode<T>): Definition<T> {
  const reference = { $ref: `#/$defs/${name}` };
  Object.defineProperty(reference, DEFINITION, { value: { name, schema }, enumerable: false });
  return reference as unknown as Definition<T>;
}

export function definitionInfo(fragment: unknown): DefinitionInfo | undefined {
  if (typeof fragment !== 'object' || fragment === null) return undefined;
  return (fragment as { [DEFINITION]?: DefinitionInfo })[DEFINITION];
}
