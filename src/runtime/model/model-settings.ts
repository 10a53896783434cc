/** Effective ModelSettings of a run: merge and validation (docs/spec/runtime.md §14.2). */
import type { ModelSettings } from './types';

const SETTINGS_MEMBERS = [
  'temperature',
  'top_p',
  'max_tokens',
  'tool_choice',
  'parallel_tool_calls',
  'timeout_seconds',
  'retry',
  'extra_body',
];
const RETRY_MEMBERS = ['max_attempts', 'backoff_seconds'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isPositiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** Agent settings overlaid by run settings: members replaced, `extra_body` merged key by key. */
export function mergeModelSettings(
  agent: ModelSettings | undefined,
  run: ModelSettings | undefined,
): ModelSettings {
  const merged: ModelSettings = { ...(agent ?? {}), ...(run ?? {}) };
  if (isPlainObject(agent?.extra_body) && isPlainObject(run?.extra_body)) {
    merged.extra_body = { ...agent.extra_body, ...run.extra_body };
  }
  for (const key of Object.keys(merged) as Array<keyof ModelSettings>) {
    if (merged[key] === undefined) delete merged[key];
  }
  return merged;
}

function toolChoiceProblem(value: unknown): string | null {
  if (value === 'auto' || value === 'required' || value === 'none') return null;
  if (isPlainObject(value) && value.type === 'function' && Object.keys(value).length === 2) {
    const fn = value.function;
    if (isPlainObject(fn) && typeof fn.name === 'string' && fn.name !== '' && Object.keys(fn).length === 1)
      return null;
  }
  return 'tool_choice must be "auto", "required", "none" or {"type":"function","function":{"name":<tool>}}';
}

function retryProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return 'retry must be an object';
  const unknown = Object.keys(value).filter((key) => !RETRY_MEMBERS.includes(key));
  if (unknown.length > 0) return `unknown retry member: ${unknown.join(', ')}`;
  if (value.max_attempts !== undefined && !isPositiveInteger(value.max_attempts)) {
    return 'retry.max_attempts must be an integer > 0';
  }
  const backoff = value.backoff_seconds;
  if (backoff !== undefined && !(isFiniteNumber(backoff) && backoff >= 0)) {
    return 'retry.backoff_seconds must be a finite number >= 0';
  }
  return null;
}

function settingsProblem(settings: Record<string, unknown>): string | null {
  const unknown = Object.keys(settings).filter((key) => !SETTINGS_MEMBERS.includes(key));
  if (unknown.length > 0) return `unknown member: ${unknown.join(', ')}`;
  const { temperature, top_p: topP, max_tokens: maxTokens, timeout_seconds: timeout } = settings;
  if (temperature !== undefined && !(isFiniteNumber(temperature) && temperature >= 0)) {
    return 'temperature must be a finite number >= 0';
  }
  if (topP !== undefined && !(isFiniteNumber(topP) && topP >= 0 && topP <= 1)) {
    return 'top_p must be a number between 0 and 1';
  }
  if (maxTokens !== undefined && !isPositiveInteger(maxTokens)) return 'max_tokens must be an integer > 0';
  if (settings.tool_choice !== undefined) {
    const problem = toolChoiceProblem(settings.tool_choice);
    if (problem) return problem;
  }
  if (settings.parallel_tool_calls !== undefined && typeof settings.parallel_tool_calls !== 'boolean') {
    return 'parallel_tool_calls must be a boolean';
  }
  if (timeout !== undefined && !(isFiniteNumber(timeout) && timeout > 0)) {
    return 'timeout_seconds must be a finite number > 0';
  }
  if (settings.retry !== undefined) {
    const problem = retryProblem(settings.retry);
    if (problem) return problem;
  }
  if (settings.extra_body !== undefined && !isPlainObject(settings.extra_body))
    return 'extra_body must be an object';
  return null;
}

/** Throws `invalid model settings: <detail>`. */
export function validateModelSettings(settings: unknown): ModelSettings {
  if (!isPlainObject(settings)) throw new Error('invalid model settings: settings must be an object');
  const problem = settingsProblem(settings);
  if (problem) throw new Error(`invalid model settings: ${problem}`);
  return settings as ModelSettings;
}
