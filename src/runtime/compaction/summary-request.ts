/** The summary request and the summary message of a compaction (docs/spec/history.md §1). Pure. */
import { trimHistory } from '../history-trimming';
import type { Message, UserMessage } from '../messages';
import type { ModelSettings, ResolvedModelConfig } from '../model/types';

/** The compacted history starts with one user message: this prefix, then the summary. */
export const SUMMARY_PREFIX = 'Summary of the conversation so far:\n';

/** The final user message of a summary request (documented in docs/compaction.md). */
export const COMPACTION_INSTRUCTIONS = [
  'The conversation above is about to be replaced by a summary, because the context window is',
  'filling up. Write a hand-off summary that lets you continue the work without the earlier',
  'messages. Do not call tools; answer with the summary only, in plain text, under these headings:',
  '',
  'Goal: what the user asked for, with every constraint and preference they stated.',
  'Decisions: the choices made so far and why, including approaches that were rejected.',
  'Done: what has been done and its results (commands run, tests, outcomes).',
  'Files: every file read, created or changed, with one line on its role or change.',
  'Open questions: anything unresolved, uncertain or waiting for the user.',
  'Next steps: what to do next, in order.',
  '',
  'Be specific: keep exact names, paths, identifiers, commands, error messages and numbers.',
].join('\n');

const INSTRUCTIONS_MESSAGE: UserMessage = { role: 'user', content: COMPACTION_INSTRUCTIONS };

/**
 * System instructions, the history being compacted, then the instructions. A history too long for
 * one request loses its oldest segments first (the trimming rule of docs/spec/runtime.md §11.6), so the
 * request fits the context; the summary still replaces all of it.
 */
export function summaryRequestMessages(
  system: Message,
  summarized: readonly Message[],
  model: Pick<ResolvedModelConfig, 'context_length' | 'max_output_tokens'>,
): Message[] {
  const fitting = trimHistory({
    history: summarized,
    contextLength: model.context_length,
    maxOutputTokens: model.max_output_tokens,
    fixedMessages: [system, INSTRUCTIONS_MESSAGE],
    toolSpecsJson: '',
  }).kept;
  return [system, ...fitting, { ...INSTRUCTIONS_MESSAGE }];
}

export function summaryMessage(summary: string): UserMessage {
  return { role: 'user', content: SUMMARY_PREFIX + summary };
}

/** The run's settings without the tool knobs: the summary request has no `tools`. */
export function summarySettings(settings: ModelSettings): ModelSettings {
  const { tool_choice: _toolChoice, parallel_tool_calls: _parallel, ...rest } = settings;
  return rest;
}
