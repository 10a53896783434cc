/** A CommandSandbox where none can work (no `bwrap`, not Linux): every confined call fails closed. */
import type { CommandSandbox, ProgramInvocation } from './command-sandbox';

export class UnavailableSandbox implements CommandSandbox {
  readonly networkAllowed = false;
  readonly extraWritableRoots: readonly string[] = [];

  constructor(readonly unavailableCause: string) {}

  prepare(): (program: ProgramInvocation) => ProgramInvocation {
    throw new Error(`sandbox unavailable (${this.unavailableCause})`);
  }
}
