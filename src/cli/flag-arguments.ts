/**
 * The option grammar the CLI's commands share (docs/spec/protocol.md §12.2): `--flag value` or
 * `--flag=value`, read left to right, the first error wins. A following argument that starts with
 * `--` is the next flag, not a value, and a blank value is a missing one. Pure.
 */

export type FlagValue<Value> = { value: Value } | { error: string };

export interface FlagGrammar<Value> {
  /** The command the usage errors name: `unknown <command> argument: …`, `duplicate <command> argument: …`. */
  command: string;
  /** The flags that take one value, at most once. */
  valueFlags: readonly string[];
  /** A value flag's value from its text, or the error refusing it. */
  parseValue(flag: string, raw: string): FlagValue<Value>;
  /** Flags without a value. */
  switches?: readonly string[];
  /** Flags that take a value and may be given more than once; their values are kept as given, in order. */
  repeatable?: readonly string[];
  /** Flags whose value may be the empty string (a blank one is still missing). */
  emptyAllowed?: readonly string[];
}

export interface ParsedFlags<Value> {
  values: Map<string, Value>;
  switches: Set<string>;
  repeated: Map<string, string[]>;
}

export function parseFlagArguments<Value>(
  args: readonly string[],
  grammar: FlagGrammar<Value>,
): ParsedFlags<Value> | { error: string } {
  const parsed: ParsedFlags<Value> = { values: new Map(), switches: new Set(), repeated: new Map() };
  const unknown = (name: string) => ({ error: `unknown ${grammar.command} argument: ${name}` });
  const duplicate = (name: string) => ({ error: `duplicate ${grammar.command} argument: ${name}` });
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) return unknown(arg);
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    if (grammar.switches?.includes(flag)) {
      if (eq >= 0) return { error: `${flag} takes no value` };
      if (parsed.switches.has(flag)) return duplicate(flag);
      parsed.switches.add(flag);
      continue;
    }
    const repeatable = grammar.repeatable?.includes(flag) === true;
    if (!repeatable && !grammar.valueFlags.includes(flag)) return unknown(flag);
    if (!repeatable && parsed.values.has(flag)) return duplicate(flag);
    let raw: string | undefined;
    if (eq >= 0) {
      raw = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      raw = next === undefined || next.startsWith('--') ? undefined : next;
      if (raw !== undefined) i++;
    }
    const emptyAllowed = raw === '' && grammar.emptyAllowed?.includes(flag) === true;
    if (raw === undefined || (raw.trim() === '' && !emptyAllowed))
      return { error: `${flag} requires a value` };
    if (repeatable) {
      parsed.repeated.set(flag, [...(parsed.repeated.get(flag) ?? []), raw]);
      continue;
    }
    const value = grammar.parseValue(flag, raw);
    if ('error' in value) return value;
    parsed.values.set(flag, value.value);
  }
  return parsed;
}
