/**
 * A `session/prompt`'s content blocks as a turn's input (docs/spec/acp.md §2): text stays text, a
 * `resource_link` becomes `[resource: <uri>]`, an embedded text resource becomes a `<context>`
 * block; images, audio and binary resources are refused (not advertised). Pure.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';

export type PromptInput = { input: Record<string, unknown>[] } | { invalid: string };

function text(value: string): Record<string, unknown> {
  return { type: 'text', text: value };
}

/** `invalid` names the member: `prompt[2].type: image content is not supported`. */
export function promptInput(prompt: readonly ContentBlock[]): PromptInput {
  const input: Record<string, unknown>[] = [];
  for (const [index, block] of prompt.entries()) {
    const member = `prompt[${index}]`;
    switch (block.type) {
      case 'text':
        input.push(text(block.text));
        break;
      case 'resource_link':
        input.push(text(`[resource: ${block.uri}]`));
        break;
      case 'resource': {
        const resource = block.resource;
        if (!('text' in resource) || typeof resource.text !== 'string')
          return { invalid: `${member}.resource: only text resources are supported` };
        input.push(text(`<context uri=${JSON.stringify(resource.uri)}>\n${resource.text}\n</context>`));
        break;
      }
      default:
        return { invalid: `${member}.type: ${block.type} content is not supported` };
    }
  }
  return { input };
}
