/**
 * What a user can pick instead, after `--backend` / `--model` named nothing in the settings file:
 * the runtime's exact §13.3 message stays the first line, the choices follow on a second one.
 */
import type { LlmSettings } from '../runtime/llm';

const BACKEND_NOT_FOUND = 'invalid LLM settings: backend not found: ';
const MODEL_NOT_FOUND = 'invalid LLM settings: model not found: ';

function listed(names: string[]): string {
  return names.length === 0 ? '(none)' : names.join(', ');
}

/** The resolution error message, with a line naming the backends or models that exist. */
export function withSettingsChoices(message: string, settings: LlmSettings, backend: string): string {
  if (message.startsWith(BACKEND_NOT_FOUND))
    return `${message}\navailable backends: ${listed([...settings.backends.keys()].sort())}`;
  if (message.startsWith(MODEL_NOT_FOUND)) {
    const models = settings.backends.get(backend)?.models;
    const enabled = [...(models?.values() ?? [])].filter((model) => model.enabled).map((model) => model.key);
    return `${message}\navailable models of ${backend}: ${listed(enabled.sort())}`;
  }
  return message;
}
