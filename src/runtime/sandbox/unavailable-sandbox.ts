/** A CommandSandbox where none can work (no `bwrap`, not Linux): every confined call fails closed. */
import type { CommandSandbox, PreparedSandbox } from './command-sandbox';

export class UnavailableSandbox implements CommandSandbox {
  readonly networkAllowed = false;
  readonly extraWritableRoots: readonly string[] = [];

  constructor(readonly unavailableCause: string) {}

  prepare(): PreparedSandbox {
    throw new Error(`sandbox unavailable (${this.unavailableCause})`);
  }
}
