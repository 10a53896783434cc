/** `loadLlmSettings(path)`: read, parse and validate a settings file (docs/spec/runtime.md §13.1). */
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { LlmSettings } from './llm-settings';
import { parseLlmSettingsDocument } from './settings-document';
import { causeMessage } from '../cause-message';

function isMissingFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Loads the file synchronously (it is read once at startup). Every failure throws an `Error` with
 * the exact message of §13.1; `<path>` is always the path as given.
 */
export function loadLlmSettings(path: string): LlmSettings {
  try {
    statSync(path);
  } catch (error) {
    if (isMissingFile(error)) throw new Error(`settings file not found: ${path}`);
    throw new Error(`failed to read settings file ${path}: ${causeMessage(error)}`);
  }

  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`failed to read settings file ${path}: ${causeMessage(error)}`);
  }

  const extension = extname(path);
  if (extension.toLowerCase() !== '.json') {
    const shown = extension.length > 1 ? extension.slice(1) : '<none>';
    throw new Error(`invalid LLM settings: unsupported settings file extension: ${shown}`);
  }

  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new Error(`failed to parse settings file ${path}: ${causeMessage(error)}`);
  }
  return parseLlmSettingsDocument(document);
}
