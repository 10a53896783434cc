/**
 * Params schemas from the registry's class-validator DTOs (docs/spec/protocol.md §11.1: the validator and the
 * schemas share one source). Reads class-validator's metadata directly: each rule of
 * `protocol/dto/param-rules.ts` maps to one JSON Schema keyword. An unknown rule fails generation, so
 * a new rule cannot silently drop out of the schemas.
 *
 * (class-validator-jsonschema was tried first; it needed a fix-up for every rule used here:
 * `IsDefined` became `not: {type: null}`, `IsInt` became `number`, per-element rules became
 * `$ref: Array`, nested DTOs got `type` next to `$ref`, and `cwd` lost its `null`.)
 */
import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { PARAM_TEXTS } from '../dto';
import type { ParamsDtoClass } from '../registry';

export type JsonSchemaObject = Record<string, unknown>;

type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/** A params DTO rendered as schemas: the root and its nested DTO types (keyed by type name). */
export interface ParamsSchemas {
  root: JsonSchemaObject;
  nested: Record<string, JsonSchemaObject>;
}

/** `ClientInfoDto` → `ClientInfo`. */
export function dtoTypeName(dto: ParamsDtoClass): string {
  return dto.name.replace(/Dto$/, '');
}

function ruleName(meta: ValidationMetadata): string {
  return meta.type === 'customValidation' ? (meta.name ?? meta.type) : meta.type;
}

function messageText(meta: ValidationMetadata): string | undefined {
  return typeof meta.message === 'string' ? meta.message : undefined;
}

function nestedType(dto: ParamsDtoClass, property: string): ParamsDtoClass {
  const type: unknown = Reflect.getMetadata('design:type', dto.prototype as object, property);
  if (typeof type !== 'function' || type === Object) {
    throw new Error(`params schema: cannot tell the nested DTO type of ${dto.name}.${property}`);
  }
  return type as ParamsDtoClass;
}

interface PropertySchema {
  required: boolean;
  schema: JsonSchemaObject;
  nested: ParamsDtoClass | null;
}

function propertySchema(dto: ParamsDtoClass, property: string, metas: ValidationMetadata[]): PropertySchema {
  const result: PropertySchema = { required: false, schema: {}, nested: null };
  const schema = result.schema;
  for (const meta of metas) {
    switch (ruleName(meta)) {
      case 'isDefined':
        result.required = true;
        break;
      case 'conditionalValidation':
        break;
      case 'isString':
        schema.type = messageText(meta) === PARAM_TEXTS.stringOrNull ? ['string', 'null'] : 'string';
        break;
      case 'isBoolean':
        schema.type = 'boolean';
        break;
      case 'isObject':
        schema.type = 'object';
        break;
      case 'isArray':
        schema.type = 'array';
        break;
      case 'eachString':
        schema.items = { type: 'string' };
        break;
      case 'eachObject':
        schema.items = { type: 'object' };
        break;
      case 'isInt':
        schema.type = 'integer';
        break;
      case 'min':
        schema.minimum = meta.constraints[0] as number;
        break;
      case 'max':
        schema.maximum = meta.constraints[0] as number;
        break;
      case 'isIn':
        schema.type = 'string';
        schema.enum = [...(meta.constraints[0] as string[])];
        break;
      case 'matches':
        schema.pattern = (meta.constraints[0] as RegExp).source;
        break;
      case 'nestedValidation':
        result.nested = nestedType(dto, property);
        break;
      default:
        throw new Error(
          `params schema: no JSON Schema mapping for rule ${ruleName(meta)} (${dto.name}.${property})`,
        );
    }
  }
  if (result.nested !== null) {
    result.schema = { $ref: `#/$defs/${dtoTypeName(result.nested)}` };
  }
  return result;
}

function objectSchema(dto: ParamsDtoClass, nested: Record<string, JsonSchemaObject>): JsonSchemaObject {
  const metas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const meta of metas) {
    const list = byProperty.get(meta.propertyName) ?? [];
    list.push(meta);
    byProperty.set(meta.propertyName, list);
  }
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const [property, propertyMetas] of byProperty) {
    const rendered = propertySchema(dto, property, propertyMetas);
    properties[property] = rendered.schema;
    if (rendered.required) required.push(property);
    if (rendered.nested !== null) {
      const name = dtoTypeName(rendered.nested);
      if (nested[name] === undefined) nested[name] = objectSchema(rendered.nested, nested);
    }
  }
  // Params stay open (§11.3): unknown members are ignored by the server.
  const schema: JsonSchemaObject = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

export function paramsSchemas(dto: ParamsDtoClass): ParamsSchemas {
  const nested: Record<string, JsonSchemaObject> = {};
  const root = objectSchema(dto, nested);
  return { root, nested };
}
