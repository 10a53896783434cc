/**
 * Whether the server is shutting down, and the work to do when it does (cancel running turns,
 * settle them within the deadline). The transport-facing server core starts the shutdown and runs
 * the hooks; the domain only reads the flag and registers hooks, so it needs no transport.
 */
export interface ShutdownContext {
  /** Why the server shuts down, as the transport reported it (e.g. `eof`, `signal`). */
  reason: string;
  /** Epoch ms at which the server stops waiting for shutdown hooks. */
  deadline: number;
}

/** Cancels what runs in the background (turns) and settles it within the deadline. */
export type ShutdownHook = (context: ShutdownContext) => Promise<void>;

export class ServerLifecycle {
  private readonly hooks: ShutdownHook[] = [];
  private shuttingDown = false;

  /** True from the start of shutdown: no new server requests should be sent (docs/spec/protocol.md §1.9). */
  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Registers work to do on shutdown; hooks run concurrently, bounded by the deadline. */
  onShutdown(hook: ShutdownHook): void {
    this.hooks.push(hook);
  }

  /** Marks the shutdown as begun (idempotent). */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  /** Runs every hook; a failing hook is reported to `onError` and does not stop the others. */
  async runShutdownHooks(context: ShutdownContext, onError: (error: unknown) => void): Promise<void> {
    await Promise.allSettled(
      this.hooks.map(async (hook) => {
        try {
          await hook(context);
        } catch (error) {
          onError(error);
        }
      }),
    );
  }
}
