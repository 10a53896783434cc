/**
 * What a session's tool calls tell about the text of the files they touch, so `write_file` and
 * `edit_file` can be shown as ACP diffs (docs/spec/acp.md §3) from the thread's items alone — the same when
 * streamed and when replayed after a restart, without reading the disk after the fact.
 *
 * The runtime only overwrites an existing file after a full `read_file` of it in the same run
 * (docs/spec/runtime.md §10.5), so a path no call has seen yet is a new file (`oldText: null`). A path seen
 * only through a partial or cut read is "unknown": its diff then shows the edited fragment
 * (`edit_file`) or is left out (`write_file`), never a guessed old text.
 */
import type { Diff } from '@agentclientprotocol/sdk';

const UNKNOWN = Symbol('unknown');
type Knowledge = string | typeof UNKNOWN;

export interface CompletedFileCall {
  toolName: string;
  /** Absolute path of the file. */
  path: string;
  args: Record<string, unknown>;
  /** The item's output preview and whether it was cut. */
  output: string | undefined;
  outputTruncated: boolean;
}

function flag(args: Record<string, unknown>, name: string): boolean {
  return args[name] === true;
}

function stringOf(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' ? value : undefined;
}

function replaced(text: string, oldString: string, newString: string, all: boolean): string | null {
  if (!text.includes(oldString)) return null;
  return all ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
}

export class FileKnowledge {
  private readonly files = new Map<string, Knowledge>();

  /** Learns from a successful call; returns the diff of a successful write or edit, if it can be told. */
  learn(call: CompletedFileCall): Diff | null {
    switch (call.toolName) {
      case 'read_file':
        this.learnRead(call);
        return null;
      case 'write_file':
        return this.learnWrite(call);
      case 'edit_file':
        return this.learnEdit(call);
      default:
        return null;
    }
  }

  private learnRead({ path, args, output, outputTruncated }: CompletedFileCall): void {
    const whole = args.start_line === undefined && args.end_line === undefined && args.cursor === undefined;
    this.files.set(path, whole && !outputTruncated && output !== undefined ? output : UNKNOWN);
  }

  private learnWrite({ path, args }: CompletedFileCall): Diff | null {
    const content = stringOf(args, 'content');
    if (content === undefined) return null;
    const known = this.files.get(path);
    if (flag(args, 'append')) {
      const body = `${flag(args, 'leading_newline') ? '\n' : ''}${content}${flag(args, 'trailing_newline') ? '\n' : ''}`;
      if (typeof known !== 'string') {
        this.files.set(path, UNKNOWN);
        return null;
      }
      this.files.set(path, known + body);
      return { path, oldText: known, newText: known + body };
    }
    this.files.set(path, content);
    if (known === UNKNOWN) return null;
    return { path, oldText: known ?? null, newText: content };
  }

  private learnEdit({ path, args }: CompletedFileCall): Diff | null {
    const oldString = stringOf(args, 'old_string');
    const newString = stringOf(args, 'new_string');
    if (oldString === undefined || newString === undefined) return null;
    const known = this.files.get(path);
    const updated =
      typeof known === 'string' ? replaced(known, oldString, newString, flag(args, 'replace_all')) : null;
    if (typeof known === 'string' && updated !== null) {
      this.files.set(path, updated);
      return { path, oldText: known, newText: updated };
    }
    this.files.set(path, UNKNOWN);
    return { path, oldText: oldString, newText: newString };
  }
}
