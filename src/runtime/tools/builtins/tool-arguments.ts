/**
 * Readers for handler arguments. The pipeline validates arguments against the declared schema before a
 * handler runs; these readers keep a handler safe when it is called directly, failing with
 * `invalid_arguments` instead of misbehaving on a wrong type.
 */
import { BuiltinToolError } from './tool-error';

export type ToolArgs = Record<string, unknown>;

function invalid(name: string, expected: string): BuiltinToolError {
  return new BuiltinToolError('invalid_arguments', `\`${name}\` must be ${expected}`);
}

export function optionalString(args: ToolArgs, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(name, 'a string');
  return value;
}

export function requiredString(args: ToolArgs, name: string): string {
  const value = optionalString(args, name);
  if (value === undefined) throw new BuiltinToolError('invalid_arguments', `\`${name}\` is required.`);
  return value;
}

export function optionalBoolean(args: ToolArgs, name: string): boolean | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(name, 'a boolean');
  return value;
}

export function optionalInteger(args: ToolArgs, name: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(name, 'an integer');
  return value;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
