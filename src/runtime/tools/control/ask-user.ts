/** `ask_user`: pauses the run for a user decision (docs/spec/runtime.md §10.3). */
import type { ToolContext, ToolDefinition, ToolOutput } from '../types';
import { CONTROL_TOOL_METADATA } from './control-metadata';

export const ASK_USER_TOOL_NAME = 'ask_user';
const DEFAULT_QUESTION = 'Need user input';

export const ASK_USER_PARAMETERS = {
  type: 'object',
  properties: {
    question: { type: 'string', description: 'Question text to ask the user.' },
    options: {
      type: 'array',
      items: { type: 'string' },
      description: 'Optional answer options shown to the user.',
    },
    selection_type: {
      type: 'string',
      enum: ['single', 'multi'],
      description: 'Single or multi-choice mode when options are provided.',
    },
    allow_custom_options: { type: 'boolean', description: 'Whether users can add custom options.' },
  },
  required: ['question'],
};

function normalizedOptions(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const options = value
    .filter((entry): entry is string => typeof entry === 'string')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return [...new Set(options)];
}

async function askUser(_ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput> {
  const rawQuestion = typeof args.question === 'string' ? args.question.trim() : '';
  const question = rawQuestion === '' ? DEFAULT_QUESTION : rawQuestion;
  const options = normalizedOptions(args.options);
  // Key order is part of the contract: allow_custom_options, options, question, selection_type.
  const payload: Record<string, unknown> = { allow_custom_options: args.allow_custom_options === true };
  if (options.length > 0) payload.options = options;
  payload.question = question;
  payload.selection_type = args.selection_type === 'multi' ? 'multi' : 'single';
  return {
    type: 'result',
    result: {
      content: JSON.stringify(payload),
      status: 'success',
      directive: 'wait_user',
      error_code: null,
      metadata: { question },
    },
  };
}

export const askUserTool: ToolDefinition = {
  name: ASK_USER_TOOL_NAME,
  description:
    'Pause for a required user decision that cannot be discovered safely with available tools. Ask one concrete question and provide concise options when useful.',
  parameters: ASK_USER_PARAMETERS,
  toolMetadata: CONTROL_TOOL_METADATA,
  handler: askUser,
};
