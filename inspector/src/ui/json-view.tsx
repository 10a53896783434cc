/** Any JSON value as indented text: the generic view of what the page has no renderer for. */
import type { JsonValue } from '../rpc/json-value';

export function JsonView({ value, label }: { value: JsonValue | undefined; label?: string }) {
  return (
    <pre class="json" aria-label={label}>
      {JSON.stringify(value ?? null, null, 2)}
    </pre>
  );
}

/** Members the specific renderer did not show are kept visible, never dropped (docs/spec/items.md). */
export function OtherFields({
  value,
  known,
}: {
  value: Record<string, JsonValue | undefined>;
  known: readonly string[];
}) {
  const rest: Record<string, JsonValue | undefined> = {};
  for (const [key, member] of Object.entries(value)) if (!known.includes(key)) rest[key] = member;
  if (Object.keys(rest).length === 0) return null;
  return (
    <details class="other-fields">
      <summary>Other fields</summary>
      <JsonView value={rest as JsonValue} />
    </details>
  );
}
