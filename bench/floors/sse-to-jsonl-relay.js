'use strict';
// Streaming floor: a plain Node proxy. It reads one JSONL request {"id", "params": {"url", "text"}},
// POSTs a chat-completions request to the model, parses the SSE body (split on blank lines,
// JSON.parse each data payload) and writes one JSONL notification per content fragment, in the
// same shape the App Server must send (protocol.md §4.8: the item with the accumulated text plus
// the chunk), then a turn/completed line. No framework, no persistence, no runtime.
const http = require('node:http');

function relay(id, url, text) {
  const body = JSON.stringify({
    model: 'bench-model',
    stream: true,
    messages: [{ role: 'user', content: text }],
  });
  const target = new URL(`${url}/chat/completions`);
  const item = {
    itemId: 'item_00000000000000000000000000000001',
    threadId: 'thread_00000000000000000000000000000001',
    turnId: 'turn_00000000000000000000000000000001',
    type: 'agentMessage',
    status: 'inProgress',
    payload: { text: '' },
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  const request = http.request(
    target,
    { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' } },
    (response) => {
      response.setEncoding('utf8');
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
            if (data === '[DONE]') continue;
            const delta = JSON.parse(data).choices?.[0]?.delta;
            if (typeof delta?.content !== 'string' || delta.content === '') continue;
            item.payload = { text: item.payload.text + delta.content };
            item.updatedAt = Date.now();
            process.stdout.write(
              `${JSON.stringify({ jsonrpc: '2.0', method: 'item/agentMessage/delta', params: { ...item, delta: delta.content } })}\n`,
            );
          }
        }
      });
      response.on('end', () => {
        process.stdout.write(
          `${JSON.stringify({ jsonrpc: '2.0', method: 'turn/completed', params: { status: 'completed' } })}\n`,
        );
      });
    },
  );
  request.end(body);
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { status: 'running' } })}\n`);
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    if (line.trim() === '') continue;
    const message = JSON.parse(line);
    relay(message.id, message.params.url, message.params.text);
  }
});
process.stdin.on('end', () => process.exit(0));
