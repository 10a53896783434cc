/**
 * One item of the conversation, rendered for people (docs/spec/inspector.md §2). The text of
 * messages is shown as text (never parsed as HTML or Markdown, §3). Types and payload members the
 * page does not know are shown generically, never dropped (docs/spec/items.md: clients ignore what
 * they do not know — a debugger shows it instead).
 */
import { arrayOf, isObject, numberOf, objectOf, stringOf, type JsonObject } from '../rpc/json-value';
import type { ViewItem } from '../state/thread-view';
import { Badge } from './badge';
import { DiffView, diffFromArguments } from './diff-view';
import { JsonView, OtherFields } from './json-view';
import { SandboxLine } from './sandbox-line';

/** Payload members each renderer shows; the rest goes to "Other fields". */
const KNOWN: Record<string, readonly string[]> = {
  userMessage: ['text', 'input', 'steered'],
  agentMessage: ['text', 'final'],
  reasoning: ['text'],
  toolCall: [
    'toolCallId',
    'toolName',
    'arguments',
    'toolMetadata',
    'status',
    'directive',
    'errorCode',
    'executionStarted',
    'durationMs',
    'output',
    'outputTruncated',
    'commandResult',
    'fileChanges',
    'sandbox',
  ],
  approval: [
    'requestId',
    'toolCallId',
    'toolName',
    'preview',
    'arguments',
    'decision',
    'reason',
    'metadata',
    'command',
    'cwd',
    'sandbox',
    'fileChanges',
  ],
  error: ['message'],
};

export function ItemView({ item, onReview }: { item: ViewItem; onReview?: () => void }) {
  return (
    <article class={`item item-${item.type}`} data-item-id={item.itemId} data-item-type={item.type}>
      <header class="item-header">
        <span class="item-kind">{title(item)}</span>
        <Badge value={item.status} />
      </header>
      <ItemBody item={item} onReview={onReview} />
      <OtherFields value={item.payload} known={KNOWN[item.type] ?? []} />
    </article>
  );
}

function title(item: ViewItem): string {
  switch (item.type) {
    case 'userMessage':
      return item.payload.steered === true ? 'You (steered)' : 'You';
    case 'agentMessage':
      return item.payload.final === true ? 'Agent (final)' : 'Agent';
    case 'toolCall':
      return `Tool ${stringOf(item.payload.toolName) ?? ''}`;
    case 'approval':
      return `Approval ${stringOf(item.payload.toolName) ?? ''}`;
    case 'reasoning':
      return 'Reasoning';
    case 'error':
      return 'Error';
    default:
      return item.type;
  }
}

function ItemBody({ item, onReview }: { item: ViewItem; onReview?: () => void }) {
  const text = stringOf(item.payload.text) ?? '';
  switch (item.type) {
    case 'userMessage':
    case 'agentMessage':
      return <p class="message-text">{text}</p>;
    case 'reasoning':
      return (
        <details class="reasoning">
          <summary>Show reasoning ({text.length} characters)</summary>
          <p class="message-text">{text}</p>
        </details>
      );
    case 'toolCall':
      return <ToolCallBody item={item} />;
    case 'approval':
      return (
        <ApprovalBody payload={item.payload} pending={item.status === 'inProgress'} onReview={onReview} />
      );
    case 'error':
      return <p class="error-text">{stringOf(item.payload.message) ?? ''}</p>;
    default:
      return <JsonView value={item.raw} label={`${item.type} item`} />;
  }
}

function ArgumentsView({ toolName, args }: { toolName: string; args: JsonObject }) {
  const command = stringOf(args.command);
  if (toolName === 'bash' && command !== undefined)
    return (
      <pre class="command" aria-label="Command">
        {`$ ${command}`}
      </pre>
    );
  const diff = diffFromArguments(toolName, args);
  if (diff !== null) return <DiffView diff={diff} label={`Diff of ${stringOf(args.path) ?? ''}`} />;
  return <JsonView value={args} label="Arguments" />;
}

function FileChanges({ changes }: { changes: JsonObject[] }) {
  return (
    <div class="file-changes">
      {changes.map((change, index) => {
        const path = stringOf(change.path) ?? '';
        const diff = stringOf(change.diff);
        return (
          <div key={index}>
            <div class="file-change-head">
              {`${stringOf(change.kind) ?? 'change'} ${path} +${numberOf(change.additions) ?? 0} -${numberOf(change.deletions) ?? 0}`}
              {change.diffTruncated === true ? ' (diff truncated)' : ''}
            </div>
            {diff !== undefined ? (
              <DiffView diff={diff} label={`Diff of ${path}`} />
            ) : (
              <p>{change.binary === true ? 'binary file' : 'no diff'}</p>
            )}
          </div>
        );
      })}
    </div>
  );
}

function ToolCallBody({ item }: { item: ViewItem }) {
  const payload = item.payload;
  const toolName = stringOf(payload.toolName) ?? '';
  const args = isObject(payload.arguments) ? payload.arguments : undefined;
  const fileChanges = arrayOf(payload.fileChanges).filter(isObject);
  const output = stringOf(payload.output);
  const result = objectOf(payload.commandResult);
  const exitCode = numberOf(result.exitCode);
  const facts: string[] = [];
  if (exitCode !== undefined) facts.push(`exit code ${exitCode}`);
  if (typeof result.signal === 'string') facts.push(`signal ${result.signal}`);
  if (result.timedOut === true) facts.push('timed out');
  const duration = numberOf(payload.durationMs);
  if (duration !== undefined) facts.push(`${duration} ms`);
  const errorCode = stringOf(payload.errorCode);
  if (errorCode !== undefined) facts.push(`error ${errorCode}`);
  if (payload.executionStarted === false) facts.push('not executed');
  return (
    <div class="tool-call">
      {args !== undefined && fileChanges.length === 0 ? (
        <ArgumentsView toolName={toolName} args={args} />
      ) : null}
      {args !== undefined && fileChanges.length > 0 ? (
        // The server's own diff (items.md §3) replaces the one the arguments would give.
        <details>
          <summary>Arguments</summary>
          <JsonView value={args} />
        </details>
      ) : null}
      {fileChanges.length > 0 ? <FileChanges changes={fileChanges} /> : null}
      {item.liveOutput !== '' && output === undefined ? (
        <pre class="output" aria-label="Live output">
          {item.liveOutput}
        </pre>
      ) : null}
      {output !== undefined ? (
        <pre class="output" aria-label="Output">
          {output}
          {payload.outputTruncated === true ? '\n[output truncated]' : ''}
        </pre>
      ) : null}
      {facts.length > 0 ? <p class="facts">{facts.join(' · ')}</p> : null}
      <SandboxLine sandbox={payload.sandbox} />
    </div>
  );
}

function ApprovalBody({
  payload,
  pending,
  onReview,
}: {
  payload: JsonObject;
  pending: boolean;
  onReview?: () => void;
}) {
  const decision = stringOf(payload.decision);
  const reason = stringOf(payload.reason);
  const command = stringOf(payload.command);
  const cwd = stringOf(payload.cwd);
  const fileChanges = arrayOf(payload.fileChanges).filter(isObject);
  return (
    <div class="approval">
      <p class="preview">{stringOf(payload.preview) ?? ''}</p>
      {command !== undefined ? (
        <pre class="command" aria-label="Command">
          {command}
        </pre>
      ) : null}
      {cwd !== undefined ? <p class="facts">{`cwd: ${cwd}`}</p> : null}
      <SandboxLine sandbox={payload.sandbox} />
      {fileChanges.length > 0 ? <FileChanges changes={fileChanges} /> : null}
      {isObject(payload.arguments) ? (
        <details>
          <summary>Arguments</summary>
          <JsonView value={payload.arguments} />
        </details>
      ) : null}
      {decision !== undefined ? (
        <p>
          Decision: <Badge value={decision} />
          {reason !== undefined ? ` — ${reason}` : ''}
        </p>
      ) : null}
      {payload.metadata !== undefined ? (
        <JsonView value={payload.metadata} label="Decision metadata" />
      ) : null}
      {pending && onReview !== undefined ? (
        <button type="button" onClick={onReview}>
          Review approval
        </button>
      ) : null}
    </div>
  );
}
