/**
 * "Approval required" (docs/spec/inspector.md §2): the full command, cwd and sandbox — or the
 * diff — never only the 200-character `preview` (docs/spec/protocol.md §9.3: clients that approve
 * commands show the arguments). A native modal `<dialog>`: focus moves into it, Tab stays inside,
 * Escape closes it without answering (the approval stays pending and can be reviewed again).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { isObject, stringOf, type JsonObject } from '../rpc/json-value';
import type { PendingApproval } from '../state/inspector-session';
import { DiffView, diffFromArguments } from './diff-view';
import { JsonView } from './json-view';
import { SandboxLine } from './sandbox-line';

type Decision = 'allow' | 'allow_session' | 'deny';

export function ApprovalDialog({
  approval,
  onAnswer,
  onDismiss,
}: {
  approval: PendingApproval;
  onAnswer: (decision: Decision, reason: string) => void;
  onDismiss: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
    return () => element?.close();
  }, [approval]);
  const params = approval.params;
  const toolName = stringOf(params.toolName) ?? '';
  const args: JsonObject = isObject(params.arguments) ? params.arguments : {};
  const command = stringOf(params.command) ?? (toolName === 'bash' ? stringOf(args.command) : undefined);
  const cwd = stringOf(params.cwd) ?? stringOf(args.exec_dir);
  const diff = diffFromArguments(toolName, args);
  return (
    <dialog
      ref={dialog}
      class="approval-dialog"
      aria-labelledby="approval-title"
      onCancel={(event) => {
        event.preventDefault();
        onDismiss();
      }}
    >
      <h2 id="approval-title">Approval required</h2>
      <p>
        <strong>{toolName}</strong> wants to run.
      </p>
      {command !== undefined ? (
        <pre class="command" aria-label="Full command">
          {command}
        </pre>
      ) : null}
      {cwd !== undefined ? <p class="facts">{`cwd: ${cwd}`}</p> : null}
      <SandboxLine sandbox={params.sandbox} />
      {diff !== null ? <DiffView diff={diff} label="Proposed diff" /> : null}
      <details open={command === undefined && diff === null}>
        <summary>Arguments</summary>
        <JsonView value={args} label="Approval arguments" />
      </details>
      <label class="field">
        Reason
        <input type="text" value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
      </label>
      <div class="actions">
        <button type="button" class="primary" onClick={() => onAnswer('allow', reason)}>
          Allow
        </button>
        <button type="button" onClick={() => onAnswer('allow_session', reason)}>
          Allow for session
        </button>
        <button type="button" class="danger" onClick={() => onAnswer('deny', reason)}>
          Deny
        </button>
      </div>
    </dialog>
  );
}
