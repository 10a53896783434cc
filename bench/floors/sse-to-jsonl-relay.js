'use strict';
// Streaming floor: a plain Node proxy. Each JSONL request {"id", "params": {"url", "text",
// "threadId"?}} POSTs a chat-completions request to the model, parses the SSE body (split on blank
// lines, JSON.parse each data payload) and writes one JSONL notification per content fragment, in
// the shape the App Server must send (docs/spec/protocol.md §4.8 v1.1: the item envelope with
// `payload.text` = the chunk, plus `delta`), then a turn/completed line. It keeps the accumulated
// text as the server must (for item/completed and replay) and serves several requests at once
// (concurrent turns: notifications carry the request's threadId). No framework, no persistence,
// no runtime.
// It honours stdout backpressure as the App Server must (docs/spec/protocol.md §1.8): when the pipe to the
// reader is full it pauses reading the model's responses until stdout drains. Ignoring it made
// the floor buffer every unread line in memory (~130 MiB over a 100 000-chunk turn) — a floor that
// no spec-abiding server may copy, so its memory growth was no floor at all.
const http = require('node:http');
const { onSsePayloads } = require('./sse-payloads');
const { onStdinRequests } = require('./stdin-requests');

const streaming = new Set();
process.stdout.on('drain', () => {
  for (const response of streaming) response.resume();
});

function writeLine(line) {
  if (process.stdout.write(line)) return;
  for (const response of streaming) response.pause();
}

function relay(id, url, text, threadId = 'thread_00000000000000000000000000000001') {
  const body = JSON.stringify({
    model: 'bench-model',
    stream: true,
    messages: [{ role: 'user', content: text }],
  });
  const target = new URL(`${url}/chat/completions`);
  const item = {
    itemId: 'item_00000000000000000000000000000001',
    threadId,
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
      streaming.add(response);
      let accumulated = '';
      onSsePayloads(response, (payload) => {
        const delta = payload.choices?.[0]?.delta;
        if (typeof delta?.content !== 'string' || delta.content === '') return;
        accumulated += delta.content;
        item.payload = { text: delta.content };
        item.updatedAt = Date.now();
        writeLine(
          `${JSON.stringify({ jsonrpc: '2.0', method: 'item/agentMessage/delta', params: { ...item, delta: delta.content } })}\n`,
        );
      });
      response.on('end', () => {
        streaming.delete(response);
        writeLine(
          `${JSON.stringify({ jsonrpc: '2.0', method: 'turn/completed', params: { threadId, status: 'completed', textLength: accumulated.length } })}\n`,
        );
      });
    },
  );
  request.end(body);
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { status: 'running' } })}\n`);
}

onStdinRequests(
  (message) => relay(message.id, message.params.url, message.params.text, message.params.threadId),
  () => process.exit(0),
);
