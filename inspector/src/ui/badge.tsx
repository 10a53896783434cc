/** A status word with a colour class: running, completed, failed, interrupted, allow, deny, … */
export function Badge({ value }: { value: string }) {
  const kind = value.replace(/[^a-z_]/gi, '').toLowerCase();
  return <span class={`badge badge-${kind}`}>{value}</span>;
}
