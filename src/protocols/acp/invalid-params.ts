/**
 * docs/spec/acp.md §2: an invalid-params error names the member. The SDK validates params with its zod
 * schemas and answers `-32602 "Invalid params"` with the formatted issue tree as `data`; this
 * names the most telling member of that tree in the message (`Invalid params: cwd: Invalid
 * input: expected string, received number`). Pure.
 */

interface IssueTree {
  _errors?: unknown;
  [member: string]: unknown;
}

interface Leaf {
  path: string;
  message: string;
}

function isTree(value: unknown): value is IssueTree {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function memberPath(parent: string, key: string): string {
  if (/^\d+$/.test(key)) return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

function leaves(tree: IssueTree, path: string, out: Leaf[]): void {
  const errors = Array.isArray(tree._errors)
    ? tree._errors.filter((e): e is string => typeof e === 'string')
    : [];
  if (errors.length > 0 && path !== '') out.push({ path, message: errors[0] });
  for (const [key, child] of Object.entries(tree))
    if (key !== '_errors' && isTree(child)) leaves(child, memberPath(path, key), out);
}

/** A member that is present but wrong tells more than the missing members of other union branches. */
function telling(leaf: Leaf): boolean {
  return (
    !leaf.message.includes('received undefined') && !leaf.message.startsWith('Invalid input: expected "')
  );
}

/** The message for a `-32602` whose data is the SDK's issue tree; null when there is nothing to name. */
export function invalidParamsMessage(data: unknown): string | null {
  if (!isTree(data)) return null;
  const found: Leaf[] = [];
  leaves(data, '', found);
  const leaf = found.find(telling) ?? found[0];
  return leaf === undefined ? null : `Invalid params: ${leaf.path}: ${leaf.message}`;
}
