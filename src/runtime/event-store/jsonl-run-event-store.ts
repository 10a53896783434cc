/** Append-only JSONL run event store (docs/spec/runtime.md §7). */
import { createReadStream } from 'node:fs';
import { appendFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { parseRunEvent } from '../events/run-event-reader';
import type { RunEvent } from '../events/types';
import { EventStoreError, type RunEventStore } from '../events/run-event-store';
import { causeMessage } from '../cause-message';
import { makeDirectory } from '../make-directory';

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

export class JsonlRunEventStore implements RunEventStore {
  private directoryReady = false;

  constructor(readonly path: string) {}

  async append(event: RunEvent): Promise<void> {
    let line: string;
    try {
      line = JSON.stringify(event) + '\n';
    } catch (error) {
      throw new EventStoreError(causeMessage(error), 'event_store_serialization_error');
    }
    try {
      if (!this.directoryReady) {
        await makeDirectory(dirname(this.path));
        this.directoryReady = true;
      }
      // appendFile opens in append mode, writes the whole line and closes: lines are never rewritten.
      await appendFile(this.path, line, { encoding: 'utf8', flag: 'a' });
    } catch (error) {
      throw new EventStoreError(causeMessage(error), 'event_store_io_error');
    }
  }

  async *replay(query: {
    runId: string;
    includeChildren?: boolean;
  }): AsyncIterable<RunEvent | EventStoreError> {
    const includeChildren = query.includeChildren ?? true;
    try {
      await stat(this.path);
    } catch (error) {
      if (isMissingFile(error)) return;
      yield new EventStoreError(causeMessage(error), 'event_store_io_error');
      return;
    }
    const input = createReadStream(this.path, { encoding: 'utf8' });
    const lines = createInterface({ input, crlfDelay: Infinity });
    let lineNumber = 0;
    try {
      for await (const line of lines) {
        lineNumber += 1;
        let event: RunEvent;
        try {
          event = parseRunEvent(JSON.parse(line));
        } catch {
          yield new EventStoreError(
            `event store corrupt line ${lineNumber}`,
            'event_store_corrupt_line',
            lineNumber,
          );
          return;
        }
        if (event.run_id === query.runId || (includeChildren && event.parent_run_id === query.runId))
          yield event;
      }
    } catch (error) {
      yield new EventStoreError(causeMessage(error), 'event_store_io_error');
    } finally {
      lines.close();
      input.destroy();
    }
  }
}
