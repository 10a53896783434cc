/** Pure construction of a chat-completions request body (docs/spec/runtime.md §14.1). */
import type { Message } from '../messages';
import type { EndpointOption, LlmRequest, ToolSpec } from '../model/types';

type JsonObject = Record<string, unknown>;

/** A request that cannot be built from its settings; never retried, never failed over. */
export class ChatRequestBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatRequestBuildError';
  }
}

const REASONING_CHAIN_BACKENDS = new Set(['deepseek', 'minimax', 'moonshot']);
const REASONING_CHAIN_MODEL_PREFIXES = ['deepseek-', 'minimax-', 'kimi-', 'moonshot-'];

/** Kimi K3 rejects sampling and thinking knobs; they are removed after settings are applied. */
const KIMI_K3_REMOVED_MEMBERS = [
  'temperature',
  'top_p',
  'thinking',
  'reasoning',
  'enable_thinking',
  'frequency_penalty',
  'presence_penalty',
  'n',
];

/** Models whose API requires the previous reasoning chain on every assistant message. */
export function isReasoningChainModel(backend: string, modelId: string): boolean {
  return (
    REASONING_CHAIN_BACKENDS.has(backend) ||
    REASONING_CHAIN_MODEL_PREFIXES.some((prefix) => modelId.startsWith(prefix))
  );
}

/** Tool-call arguments are re-serialized compactly when they are JSON, else sent as stored. */
function compactArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function wireMessage(message: Message, reasoningChain: boolean): JsonObject {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    case 'assistant': {
      const wire: JsonObject = { role: 'assistant', content: message.content ?? '' };
      if (message.tool_calls && message.tool_calls.length > 0) {
        wire.tool_calls = message.tool_calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.function.name, arguments: compactArguments(call.function.arguments) },
        }));
      }
      if (message.reasoning_content !== undefined) wire.reasoning_content = message.reasoning_content;
      else if (reasoningChain) wire.reasoning_content = '';
      return wire;
    }
  }
}

function applyTools(body: JsonObject, tools: ToolSpec[], request: LlmRequest): void {
  const choice = request.settings.tool_choice;
  if (choice === 'none') return;
  if (typeof choice === 'object') {
    const name = choice.function.name;
    const chosen = tools.filter((tool) => tool.function.name === name);
    if (chosen.length === 0) throw new ChatRequestBuildError(`tool_choice refers to unknown tool: ${name}`);
    body.tools = chosen;
    body.tool_choice = { type: 'function', function: { name } };
    return;
  }
  if (tools.length === 0) return;
  body.tools = tools;
  body.tool_choice = choice ?? 'auto';
}

/** Own-property writes, so a `__proto__` member is sent as a member instead of changing the prototype. */
function mergeTopLevel(body: JsonObject, extra: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(extra)) {
    Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

function applyModelRules(body: JsonObject, backend: string, modelId: string): void {
  if (modelId.startsWith('deepseek-') || backend === 'deepseek') {
    body.thinking = { type: 'enabled' };
    body.reasoning_effort = 'max';
  }
  if (modelId.startsWith('kimi-k3')) {
    for (const member of KIMI_K3_REMOVED_MEMBERS) delete body[member];
    if ('max_tokens' in body) {
      body.max_completion_tokens = body.max_tokens;
      delete body.max_tokens;
    }
    body.reasoning_effort = 'max';
  }
}

/** The body sent to `option`'s endpoint. Throws `ChatRequestBuildError` for unusable settings. */
export function buildChatRequestBody(request: LlmRequest, option: EndpointOption): JsonObject {
  const reasoningChain = isReasoningChainModel(request.model.backend, option.model_id);
  return bodyAround(
    request,
    option,
    request.messages.map((message) => wireMessage(message, reasoningChain)),
  );
}

/**
 * Each message's wire JSON, per reasoning-chain flag. A message is never changed once it is in the
 * conversation, and serializing the whole conversation again before every model call was most of
 * the cost of building a long turn's requests; joining cached JSON is about 3× cheaper. An entry lives as long as its message
 * (a run's conversation), so a run holds its history's text twice.
 */
const plainWireJson = new WeakMap<Message, string>();
const chainedWireJson = new WeakMap<Message, string>();

function wireJson(message: Message, reasoningChain: boolean): string {
  const cache = reasoningChain ? chainedWireJson : plainWireJson;
  let json = cache.get(message);
  if (json === undefined) {
    json = JSON.stringify(wireMessage(message, reasoningChain));
    cache.set(message, json);
  }
  return json;
}

/**
 * The JSON text of `buildChatRequestBody(request, option)`, with each message serialized once:
 * the body is serialized around an empty messages array, and the messages' cached JSON goes inside
 * it. When the settings replaced `model` or `messages` (`extra_body`), the whole body is serialized.
 */
export function chatRequestJson(request: LlmRequest, option: EndpointOption): string {
  const reasoningChain = isReasoningChainModel(request.model.backend, option.model_id);
  const slot: unknown[] = [];
  const body = bodyAround(request, option, slot);
  const json = JSON.stringify(body);
  const head = `{"model":${JSON.stringify(body.model)},"messages":[`;
  if (body.messages !== slot || !json.startsWith(head))
    return JSON.stringify(buildChatRequestBody(request, option));
  const messages = request.messages.map((message) => wireJson(message, reasoningChain)).join(',');
  return head + messages + json.slice(head.length);
}

/** The body with `messages` (the wire messages, or a slot for them) as its second member. */
function bodyAround(request: LlmRequest, option: EndpointOption, messages: unknown[]): JsonObject {
  const backend = request.model.backend;
  const modelId = option.model_id;
  const settings = request.settings;

  const body: JsonObject = { model: modelId, messages };
  applyTools(body, request.tools, request);
  body.stream = true;
  body.stream_options = { include_usage: true };
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.top_p !== undefined) body.top_p = settings.top_p;
  if (settings.max_tokens !== undefined) body.max_tokens = settings.max_tokens;
  if (settings.parallel_tool_calls !== undefined) body.parallel_tool_calls = settings.parallel_tool_calls;
  if (settings.extra_body) mergeTopLevel(body, settings.extra_body);
  applyModelRules(body, backend, modelId);
  return body;
}
