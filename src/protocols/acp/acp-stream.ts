/**
 * The ACP message stream the agent serves: the SDK's newline-delimited JSON framing over the given
 * byte streams, with every outgoing SDK `-32602` naming its member (invalid-params.ts).
 */
import { ndJsonStream, type AnyMessage, type Stream } from '@agentclientprotocol/sdk';
import { invalidParamsMessage } from './invalid-params';

function named(message: AnyMessage): AnyMessage {
  if (!('error' in message) || message.error === undefined) return message;
  const { error } = message;
  if (error.code !== -32602 || error.message !== 'Invalid params') return message;
  const text = invalidParamsMessage(error.data);
  return text === null ? message : { ...message, error: { ...error, message: text } };
}

export function acpStream(
  output: WritableStream<Uint8Array>,
  input: ReadableStream<Uint8Array>,
  maxMessageBytes?: number,
): Stream {
  const framed = ndJsonStream(output, input, maxMessageBytes !== undefined ? { maxMessageBytes } : undefined);
  const naming = new TransformStream<AnyMessage, AnyMessage>({
    transform: (message, controller) => controller.enqueue(named(message)),
  });
  void naming.readable.pipeTo(framed.writable).catch(() => undefined);
  return { readable: framed.readable, writable: naming.writable };
}
