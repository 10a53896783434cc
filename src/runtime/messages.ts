/** Provider-facing conversation messages (docs/spec/runtime.md §11.6). Wire objects: snake_case. */
export interface AssistantToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  tool_calls?: AssistantToolCall[];
  reasoning_content?: string;
}

export interface ToolMessage {
  role: 'tool';
  content: string;
  tool_call_id: string;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
