/**
 * The params validation rules of docs/spec/protocol.md §3.0 as composed class-validator decorators. Each
 * property gets exactly one rule; a rule registers its constraints in the order their messages take
 * precedence, so the first failing constraint of a property is the text the spec asks for.
 * Optional members are validated whenever present — `null` included (§3.0: `null` for an optional
 * member is a wrong type), except where a rule says "or null".
 */
// Decorated DTOs emit design metadata: the polyfill must be loaded wherever DTOs are.
import 'reflect-metadata';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  isObject,
  isString,
} from 'class-validator';

/** The validation texts of §3.0. */
export const PARAM_TEXTS = {
  required: 'is required',
  string: 'must be a string',
  stringOrNull: 'must be a string or null',
  boolean: 'must be a boolean',
  object: 'must be an object',
  array: 'must be an array',
  notBlank: 'must not be blank',
  positiveInteger: 'must be a positive integer',
  integerBetween: (min: number, max: number): string => `must be an integer between ${min} and ${max}`,
  oneOf: (values: readonly string[]): string => `must be one of: ${values.join(', ')}`,
} as const;

/**
 * Per-element constraints, registered under their own names so the params validator can report each
 * failing element under its index (`/input/2`). The validator re-applies these predicates per element.
 */
export const EACH_ELEMENT_RULES: Readonly<Record<string, (value: unknown) => boolean>> = {
  eachString: (value) => isString(value),
  eachObject: (value) => isObject(value),
};

type Decorator = PropertyDecorator;
type Constructor = new () => object;

/**
 * The nested params DTO of each property that has one, keyed by the declaring prototype. The params
 * validator builds nested instances from it and keeps every other value exactly as received.
 */
const NESTED_PARAM_TYPES = new WeakMap<object, Map<string | symbol, () => Constructor>>();

function NestedType(type: () => Constructor): Decorator {
  return (target, key) => {
    const types = NESTED_PARAM_TYPES.get(target) ?? new Map<string | symbol, () => Constructor>();
    types.set(key, type);
    NESTED_PARAM_TYPES.set(target, types);
  };
}

/** The nested DTO declared for `key` on `dto` (or a DTO it extends); undefined for plain values. */
export function nestedParamType(dto: Constructor, key: string): Constructor | undefined {
  for (let proto: unknown = dto.prototype; proto !== null && typeof proto === 'object';) {
    const type = NESTED_PARAM_TYPES.get(proto)?.get(key);
    if (type !== undefined) return type();
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

function rule(...decorators: Decorator[]): Decorator {
  return (target, key) => {
    for (const decorate of decorators) decorate(target, key);
  };
}

const present = ValidateIf((_object: unknown, value: unknown) => value !== undefined);
const presentAndNotNull = ValidateIf(
  (_object: unknown, value: unknown) => value !== undefined && value !== null,
);
const required = IsDefined({ message: PARAM_TEXTS.required });

function EachElement(name: keyof typeof EACH_ELEMENT_RULES & string, message: string): Decorator {
  const predicate = EACH_ELEMENT_RULES[name];
  return ValidateBy(
    { name, validator: { validate: (value: unknown) => predicate(value) } },
    { each: true, message },
  );
}

export const RequiredString = (): Decorator => rule(required, IsString({ message: PARAM_TEXTS.string }));

export const OptionalString = (): Decorator => rule(present, IsString({ message: PARAM_TEXTS.string }));

/** `cwd`: a string, `null`, or absent. */
export const OptionalStringOrNull = (): Decorator =>
  rule(presentAndNotNull, IsString({ message: PARAM_TEXTS.stringOrNull }));

/** A string that is not empty or whitespace only (`clientInfo.name`). */
export const RequiredNonBlankString = (): Decorator =>
  rule(required, IsString({ message: PARAM_TEXTS.string }), Matches(/\S/, { message: PARAM_TEXTS.notBlank }));

export const OptionalBoolean = (): Decorator => rule(present, IsBoolean({ message: PARAM_TEXTS.boolean }));

/** A JSON object with arbitrary members (`metadata`). */
export const OptionalObject = (): Decorator => rule(present, IsObject({ message: PARAM_TEXTS.object }));

/** A required JSON object with arbitrary members (`thread/metadata/update` `metadata`). */
export const RequiredObject = (): Decorator => rule(required, IsObject({ message: PARAM_TEXTS.object }));

/** A JSON object validated against a nested params DTO. */
export const RequiredNested = (type: () => Constructor): Decorator =>
  rule(required, IsObject({ message: PARAM_TEXTS.object }), ValidateNested(), NestedType(type));

export const OptionalNested = (type: () => Constructor): Decorator =>
  rule(present, IsObject({ message: PARAM_TEXTS.object }), ValidateNested(), NestedType(type));

export const OptionalStringArray = (): Decorator =>
  rule(present, IsArray({ message: PARAM_TEXTS.array }), EachElement('eachString', PARAM_TEXTS.string));

/** `input`: an array whose every element is a JSON object (may be empty). */
export const RequiredObjectArray = (): Decorator =>
  rule(required, IsArray({ message: PARAM_TEXTS.array }), EachElement('eachObject', PARAM_TEXTS.object));

export const OptionalPositiveInteger = (): Decorator =>
  rule(
    present,
    IsInt({ message: PARAM_TEXTS.positiveInteger }),
    Min(1, { message: PARAM_TEXTS.positiveInteger }),
  );

export const OptionalIntegerBetween = (min: number, max: number): Decorator => {
  const message = PARAM_TEXTS.integerBetween(min, max);
  return rule(present, IsInt({ message }), Min(min, { message }), Max(max, { message }));
};

/** A required string from a fixed, case-sensitive set. */
export const RequiredOneOf = (values: readonly string[]): Decorator =>
  rule(required, IsIn([...values], { message: PARAM_TEXTS.oneOf(values) }));

/** An optional string from a fixed, case-sensitive set. */
export const OptionalOneOf = (values: readonly string[]): Decorator =>
  rule(present, IsIn([...values], { message: PARAM_TEXTS.oneOf(values) }));
