'use strict';
// Shared by the plain-Node floors that read a model's stream: calls `handle` with the parsed JSON
// of each SSE event's `data:` line as the events arrive (`[DONE]` is skipped). Split on blank
// lines, one JSON.parse per payload: the least a reader of this stream can do.
function onSsePayloads(response, handle) {
  let pending = '';
  response.on('data', (chunk) => {
    pending += chunk;
    let boundary;
    while ((boundary = pending.indexOf('\n\n')) !== -1) {
      const event = pending.slice(0, boundary);
      pending = pending.slice(boundary + 2);
      for (const line of event.split('\n')) {
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data !== '[DONE]') handle(JSON.parse(data));
      }
    }
  });
}

module.exports = { onSsePayloads };
