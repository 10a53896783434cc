/**
 * What the bundle plugins share: each rewrites the modules its rules match, and fails the build when
 * a rule rewrote none (the package moved or changed shape, and the bundle would carry it as it was
 * without a word).
 */
import type { PluginBuild } from 'esbuild';

/**
 * Fails the build with `texts`, from an `onEnd` callback: esbuild rejects a build whose end callback
 * returns errors (errors only pushed onto the result would leave it resolved, and the bundle written).
 */
export function endErrors(texts: readonly string[]): { errors: Array<{ text: string }> } {
  return { errors: texts.map((text) => ({ text })) };
}

/**
 * Loads every module `filterOf(rule)` matches through `rewrite` (null: left as it is). Returns the
 * rules that rewrote a module, complete once the build ends.
 */
export function loadByRule<Rule>(
  build: PluginBuild,
  rules: readonly Rule[],
  filterOf: (rule: Rule) => RegExp,
  rewrite: (rule: Rule, path: string) => string | null | Promise<string | null>,
): ReadonlySet<Rule> {
  const used = new Set<Rule>();
  for (const rule of rules)
    build.onLoad({ filter: filterOf(rule) }, async ({ path }) => {
      const contents = await rewrite(rule, path);
      if (contents === null) return undefined;
      used.add(rule);
      return { contents, loader: 'js' };
    });
  return used;
}

/** Fails the build, once it ends without other errors, for each rule that rewrote no module. */
export function failUnusedRules<Rule>(
  build: PluginBuild,
  rules: readonly Rule[],
  used: ReadonlySet<Rule>,
  describe: (rule: Rule) => string,
): void {
  build.onEnd((result) =>
    result.errors.length > 0 ? undefined : endErrors(rules.filter((rule) => !used.has(rule)).map(describe)),
  );
}
