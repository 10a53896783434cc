/**
 * Params handling of docs/spec/protocol.md §3.0: the params mode of a method (`Missing params`, `params must
 * be an object`, schema/export's `params must be an empty object`), then DTO validation whose
 * violations become `errors[]` with JSON Pointer paths in params-table order.
 */
import { validateSync, type ValidationError } from 'class-validator';
import { EACH_ELEMENT_RULES, PARAM_TEXTS, nestedParamType } from './dto/param-rules';
import { RpcErrors, type ParamsIssue } from './errors';
import type { ClientMethodSpec } from './registry';

type ParamsSpec = Pick<ClientMethodSpec, 'paramsMode' | 'paramsDto'>;

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901 escaping of one reference token. */
function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Flattens class-validator errors into §3.0 issues. A property reports only its first failing
 * constraint (rules register constraints in precedence order); a per-element rule reports every
 * failing element under its index; nested DTOs report under the nested path.
 */
export function toParamsIssues(errors: readonly ValidationError[], basePath = ''): ParamsIssue[] {
  const issues: ParamsIssue[] = [];
  for (const error of errors) {
    const path = `${basePath}/${pointerToken(error.property)}`;
    const [first] = Object.entries(error.constraints ?? {});
    if (first !== undefined) {
      const [constraint, message] = first;
      const elementRule = EACH_ELEMENT_RULES[constraint];
      if (elementRule !== undefined && Array.isArray(error.value)) {
        error.value.forEach((element: unknown, index: number) => {
          if (!elementRule(element)) issues.push({ path: `${path}/${index}`, message });
        });
      } else {
        issues.push({ path, message });
      }
      continue;
    }
    if (error.children !== undefined && error.children.length > 0) {
      issues.push(...toParamsIssues(error.children, path));
    }
  }
  return issues;
}

/**
 * The DTO instance for `params`: every member copied as an own property exactly as parsed, nested DTO
 * members instantiated the same way. A generic plain-to-class transform is not used because it
 * rebuilds arbitrary JSON (metadata, input items): a `constructor` key made it throw, keys such as
 * `toString` were dropped, and assignment would let `__proto__` replace a prototype.
 */
function instantiateDto<T extends object>(dto: new () => T, params: Record<string, unknown>): T {
  const instance = new dto();
  for (const [key, value] of Object.entries(params)) {
    // No param is named like an Object.prototype member; such an unknown key on the instance itself
    // (`constructor` above all, which the validator uses to find the rules) is not copied.
    if (key in Object.prototype) continue;
    const nested = nestedParamType(dto, key);
    const member = nested !== undefined && isJsonObject(value) ? instantiateDto(nested, value) : value;
    Object.defineProperty(instance, key, {
      value: member,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return instance;
}

function validateInstance(instance: object): ParamsIssue[] {
  const errors = validateSync(instance, {
    forbidUnknownValues: true,
    whitelist: false,
    forbidNonWhitelisted: false,
    validationError: { target: false, value: true },
  });
  return toParamsIssues(errors);
}

/**
 * The issues of `{}` per DTO class. List methods are mostly called without params, and a DTO's rules
 * are fixed once its class is defined, so the empty instance's verdict never changes; class-validator
 * otherwise rescans every registered rule on each call (the largest cost of a `model/list`).
 */
const emptyParamsIssues = new WeakMap<object, readonly ParamsIssue[]>();

function issuesOfEmptyParams(dto: new () => object): readonly ParamsIssue[] {
  let issues = emptyParamsIssues.get(dto);
  if (issues === undefined) {
    issues = validateInstance(new dto());
    emptyParamsIssues.set(dto, issues);
  }
  return issues;
}

/** Validates one plain params object against a DTO class; returns the DTO instance and the issues. */
export function validateAgainstDto<T extends object>(
  dto: new () => T,
  params: Record<string, unknown>,
): { value: T; issues: ParamsIssue[] } {
  const value = instantiateDto(dto, params);
  if (Object.keys(params).length === 0) return { value, issues: [...issuesOfEmptyParams(dto)] };
  return { value, issues: validateInstance(value) };
}

/**
 * Applies the method's params mode and DTO. Returns what the handler receives: the validated DTO
 * instance (an instance with every member undefined when optional params are absent), or `{}` for
 * methods without a DTO. Throws the `-32602` RpcError of §3.0 otherwise. `params` is `undefined`
 * when the request had no params or `null`.
 */
export function validateParams(spec: ParamsSpec, params: unknown): object {
  switch (spec.paramsMode) {
    case 'none':
      return {};
    case 'empty':
      if (params === undefined || (isJsonObject(params) && Object.keys(params).length === 0)) return {};
      throw RpcErrors.paramsMustBeEmptyObject();
    case 'required':
      if (params === undefined) throw RpcErrors.missingParams();
      break;
    case 'optional':
      break;
  }
  const object = params === undefined ? {} : params;
  if (!isJsonObject(object)) throw RpcErrors.invalidParams([{ path: '', message: PARAM_TEXTS.object }]);
  if (spec.paramsDto === null) return object;
  const { value, issues } = validateAgainstDto(spec.paramsDto, object);
  if (issues.length > 0) throw RpcErrors.invalidParams(issues);
  return value;
}
