/** MCP `tools/call` result → the runtime's tool output (docs/spec/mcp.md §3). */
import type { ToolOutput } from '../types';

export interface McpContentPart {
  type: string;
  text?: string;
  mimeType?: string;
  resource?: { uri?: string; text?: string };
}

export interface McpCallResult {
  content?: McpContentPart[];
  structuredContent?: unknown;
  isError?: boolean;
}

export const MCP_TOOL_ERROR = 'mcp_tool_error';
export const MCP_TOOL_TIMEOUT = 'mcp_tool_timeout';
export const MCP_SERVER_UNAVAILABLE = 'mcp_server_unavailable';

function partText(part: McpContentPart): string | null {
  switch (part.type) {
    case 'text':
      return part.text ?? '';
    case 'image':
      return `[image: ${part.mimeType ?? 'unknown'}]`;
    case 'audio':
      return `[audio: ${part.mimeType ?? 'unknown'}]`;
    case 'resource':
      return part.resource?.text ?? `[resource: ${part.resource?.uri ?? ''}]`;
    default:
      return null;
  }
}

export function callResultText(result: McpCallResult): string {
  const parts = result.content ?? [];
  const lines = parts.map(partText).filter((line): line is string => line !== null);
  const hasText = parts.some((part) => part.type === 'text');
  if (!hasText && result.structuredContent !== undefined)
    lines.push(JSON.stringify(result.structuredContent));
  return lines.join('\n');
}

export function callResultOutput(result: McpCallResult): ToolOutput {
  const text = callResultText(result);
  if (result.isError === true) return { type: 'error', message: text, code: MCP_TOOL_ERROR };
  return { type: 'text', text };
}
