/**
 * Feed a 2xx response body into a `StreamAssembler`, as SSE or as a plain JSON completion, and decide
 * whether what arrived is a complete response (docs/spec/runtime.md §14.4 v1.1): a stream needs a finish reason
 * or `[DONE]`; a body that is neither SSE nor a JSON completion is an error, never an empty reply.
 */
import { AttemptFailure, INCOMPLETE_STREAM_TEXT, unexpectedBodyFailure } from './attempt-failure';
import type { ChunkOutcome, ResponseBodyConsumer } from './chat-completions-transport';
import { SseParser } from './sse-parser';
import type { StreamAssembler } from './stream-assembler';

/** Enough of a body that carried no SSE event to recognise a JSON completion in it. */
const MAX_NON_SSE_BODY_BYTES = 4 * 1024 * 1024;

/** Collects a body (up to a bound) as text. */
class BodyText {
  private readonly pieces: Buffer[] = [];
  private size = 0;

  add(chunk: Buffer): void {
    if (this.size >= MAX_NON_SSE_BODY_BYTES) return;
    this.pieces.push(chunk);
    this.size += chunk.length;
  }

  text(): string {
    return Buffer.concat(this.pieces).toString('utf8');
  }
}

/**
 * A JSON completion (an object with a `choices` array) or a provider error payload goes to the
 * assembler; anything else (HTML, empty, other JSON) is an unexpected body.
 */
function acceptJsonDocument(text: string, assembler: StreamAssembler): void {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw unexpectedBodyFailure(text);
  }
  const object = document !== null && typeof document === 'object' && !Array.isArray(document);
  const members = object ? (document as Record<string, unknown>) : {};
  const isError = members.error !== undefined && members.error !== null;
  if (!isError && !Array.isArray(members.choices)) throw unexpectedBodyFailure(text);
  assembler.acceptChunk(document);
}

/** `text/event-stream` (and anything unlabeled): chunks are assembled as they arrive. */
export class SseBodyConsumer implements ResponseBodyConsumer {
  private readonly parser = new SseParser();
  /** The body as long as no SSE event has arrived (it may be a JSON completion or HTML instead). */
  private raw: BodyText | null = new BodyText();
  private sawEvent = false;

  constructor(private readonly assembler: StreamAssembler) {}

  push(chunk: Buffer): ChunkOutcome {
    this.raw?.add(chunk);
    this.accept(this.parser.push(chunk));
    if (this.parser.done) return 'done';
    return this.parser.carriedData ? 'data' : 'keepAlive';
  }

  end(cleanly: boolean): void {
    this.accept(this.parser.end());
    if (this.parser.done || this.assembler.finished) return;
    if (this.raw !== null && cleanly) {
      acceptJsonDocument(this.raw.text(), this.assembler);
      return;
    }
    throw new AttemptFailure(INCOMPLETE_STREAM_TEXT, 'incomplete');
  }

  private accept(payloads: string[]): void {
    for (const payload of payloads) {
      if (!this.sawEvent) {
        this.sawEvent = true;
        this.raw = null;
      }
      // An empty `data:` event is a keep-alive, not a chunk.
      if (payload.trim() !== '') this.assembler.acceptPayload(payload);
    }
  }
}

/** Some gateways ignore `stream: true` and answer with one JSON completion (or error) body. */
export class JsonBodyConsumer implements ResponseBodyConsumer {
  private readonly body = new BodyText();

  constructor(private readonly assembler: StreamAssembler) {}

  push(chunk: Buffer): ChunkOutcome {
    this.body.add(chunk);
    return 'data';
  }

  end(cleanly: boolean): void {
    if (!cleanly) throw new AttemptFailure(INCOMPLETE_STREAM_TEXT, 'incomplete');
    acceptJsonDocument(this.body.text(), this.assembler);
  }
}

export function consumerFor(contentType: string, assembler: StreamAssembler): ResponseBodyConsumer {
  return /^\s*application\/json\b/i.test(contentType)
    ? new JsonBodyConsumer(assembler)
    : new SseBodyConsumer(assembler);
}
