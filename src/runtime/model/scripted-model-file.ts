/** Loading a scripted model file `{"steps":[…]}` (docs/spec/runtime.md §15.3). */
import { readFileSync } from 'node:fs';
import type { ScriptObjectStep, ScriptToolCall } from './scripted-model';
import { causeMessage } from '../cause-message';

const STEP_MEMBERS = ['content', 'tool_calls', 'reasoning_content', 'usage', 'delay_ms', 'error'];
const TOOL_CALL_MEMBERS = ['id', 'name', 'arguments'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function unknownMembers(value: Record<string, unknown>, known: string[]): string[] {
  return Object.keys(value).filter((key) => !known.includes(key));
}

function toolCallAt(value: unknown, where: string): ScriptToolCall {
  if (!isPlainObject(value)) throw new Error(`${where} must be an object`);
  const unknown = unknownMembers(value, TOOL_CALL_MEMBERS);
  if (unknown.length > 0) throw new Error(`${where} has unknown members: ${unknown.join(', ')}`);
  if (typeof value.id !== 'string') throw new Error(`${where}.id must be a string`);
  if (typeof value.name !== 'string' || value.name === '')
    throw new Error(`${where}.name must be a non-empty string`);
  if (value.arguments !== undefined && !isPlainObject(value.arguments)) {
    throw new Error(`${where}.arguments must be an object`);
  }
  return { id: value.id, name: value.name, arguments: (value.arguments as Record<string, unknown>) ?? {} };
}

function stepAt(value: unknown, where: string): ScriptObjectStep {
  if (!isPlainObject(value)) throw new Error(`${where} must be an object`);
  const unknown = unknownMembers(value, STEP_MEMBERS);
  if (unknown.length > 0) throw new Error(`${where} has unknown members: ${unknown.join(', ')}`);
  for (const member of ['content', 'reasoning_content', 'error']) {
    if (value[member] !== undefined && typeof value[member] !== 'string') {
      throw new Error(`${where}.${member} must be a string`);
    }
  }
  if (value.usage !== undefined && !isPlainObject(value.usage))
    throw new Error(`${where}.usage must be an object`);
  const delay = value.delay_ms;
  if (delay !== undefined && !(typeof delay === 'number' && Number.isFinite(delay) && delay >= 0)) {
    throw new Error(`${where}.delay_ms must be a non-negative number`);
  }
  if (value.tool_calls !== undefined && !Array.isArray(value.tool_calls)) {
    throw new Error(`${where}.tool_calls must be an array`);
  }
  const step = { ...value } as ScriptObjectStep;
  if (Array.isArray(value.tool_calls)) {
    step.tool_calls = value.tool_calls.map((call: unknown, index) =>
      toolCallAt(call, `${where}.tool_calls[${index}]`),
    );
  }
  return step;
}

/** Parses the document; throws with a detail message. */
export function parseScriptedModelDocument(document: unknown): ScriptObjectStep[] {
  if (!isPlainObject(document)) throw new Error('root must be an object');
  if (!Array.isArray(document.steps)) throw new Error('steps must be an array');
  return document.steps.map((step: unknown, index) => stepAt(step, `steps[${index}]`));
}

/** Throws `invalid scripted model file <path>: <detail>` on any read, parse or shape error. */
export function loadScriptedModelFile(path: string): ScriptObjectStep[] {
  try {
    return parseScriptedModelDocument(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new Error(`invalid scripted model file ${path}: ${causeMessage(error)}`);
  }
}
