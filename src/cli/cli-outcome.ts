/** The exit code a command decided on; main exits with it once stdout is flushed. */
export class CliOutcome {
  exitCode = 0;
}
