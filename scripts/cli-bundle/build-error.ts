/** A build error a plugin adds in `onEnd`, in the shape esbuild reports its own. */
import type { Message } from 'esbuild';

export function buildError(pluginName: string, text: string): Message {
  return { id: pluginName, pluginName, text, location: null, notes: [], detail: undefined };
}
