/**
 * `sandbox: {mode, network}` on bash tool calls and approvals (docs/spec/sandbox.md §4), said in
 * words ("runs sandboxed: workspace-write, network off"); any other shape is shown as JSON.
 */
import { isObject, stringOf, type JsonValue } from '../rpc/json-value';

function network(value: JsonValue | undefined): string {
  if (value === false) return 'network off';
  if (value === true) return 'network on';
  return `network ${stringOf(value) ?? JSON.stringify(value ?? null)}`;
}

export function SandboxLine({ sandbox }: { sandbox: JsonValue | undefined }) {
  if (sandbox === undefined) return null;
  const text = isObject(sandbox)
    ? `sandbox: ${stringOf(sandbox.mode) ?? JSON.stringify(sandbox.mode ?? null)}, ${network(sandbox.network)}`
    : `sandbox: ${JSON.stringify(sandbox)}`;
  return (
    <p class="facts" aria-label="Sandbox">
      {text}
    </p>
  );
}
