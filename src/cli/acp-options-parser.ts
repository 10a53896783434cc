/**
 * The `acp` options (docs/spec/acp.md §1): the `app-server --listen stdio` options, rules, defaults and
 * usage errors, minus `--listen` (ACP is always stdio). Pure.
 */
import type { ListenOptions } from './cli-invocation';
import { parseListenOptions } from './listen-options-parser';

/** The listen parser's messages speak of `app-server`; here they speak of `acp`. */
function asAcpMessage(message: string): string {
  return message
    .replace(/^app-server requires /, 'acp requires ')
    .replace(/ app-server argument/, ' acp argument');
}

export function parseAcpOptions(args: readonly string[]): { options: ListenOptions } | { error: string } {
  const listen = args.find((arg) => arg === '--listen' || arg.startsWith('--listen='));
  if (listen !== undefined) return { error: 'unknown acp argument: --listen' };
  const parsed = parseListenOptions(['--listen', 'stdio', ...args]);
  return 'error' in parsed ? { error: asAcpMessage(parsed.error) } : parsed;
}
