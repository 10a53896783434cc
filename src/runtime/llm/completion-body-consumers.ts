/** Feed a 2xx response body into a `StreamAssembler`, as SSE or as a plain JSON completion. */
import type { ResponseBodyConsumer } from './chat-completions-transport';
import { SseParser } from './sse-parser';
import { StreamAssembler, StreamChunkError } from './stream-assembler';
import { errorMessage } from './error-message';

/** `text/event-stream` (and anything unlabeled): chunks are assembled as they arrive. */
export class SseBodyConsumer implements ResponseBodyConsumer {
  private readonly parser = new SseParser();

  constructor(private readonly assembler: StreamAssembler) {}

  push(chunk: Buffer): boolean {
    this.accept(this.parser.push(chunk));
    return this.parser.done;
  }

  end(): void {
    this.accept(this.parser.end());
  }

  private accept(payloads: string[]): void {
    for (const payload of payloads) {
      // An empty `data:` event is a keep-alive, not a chunk.
      if (payload.trim() !== '') this.assembler.acceptPayload(payload);
    }
  }
}

/** Some gateways ignore `stream: true` and answer with one JSON completion (or error) body. */
export class JsonBodyConsumer implements ResponseBodyConsumer {
  private readonly pieces: Buffer[] = [];

  constructor(private readonly assembler: StreamAssembler) {}

  push(chunk: Buffer): boolean {
    this.pieces.push(chunk);
    return false;
  }

  end(): void {
    const text = Buffer.concat(this.pieces).toString('utf8');
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new StreamChunkError(`invalid stream chunk: ${errorMessage(error)}`, 'malformed');
    }
    this.assembler.acceptChunk(document);
  }
}

export function consumerFor(contentType: string, assembler: StreamAssembler): ResponseBodyConsumer {
  return /^\s*application\/json\b/i.test(contentType)
    ? new JsonBodyConsumer(assembler)
    : new SseBodyConsumer(assembler);
}
