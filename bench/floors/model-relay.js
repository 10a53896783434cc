'use strict';
// Shared by the plain-Node relay floors (stdio, WebSocket broadcast, LISTEN/NOTIFY): POSTs one
// chat-completions request to the model, parses the SSE body (floors/sse-payloads.js) and hands
// `sink.frame` one JSON-RPC notification text per content fragment, in the shape the App Server
// must send (docs/spec/protocol.md §4.8 v1.1: the item envelope with `payload.text` = the chunk,
// plus `delta`), then `sink.end` a turn/completed text. It keeps the accumulated text as the
// server must (for item/completed and replay). `sink.start(response)` gets the model's response
// first (a floor that honours backpressure pauses it). Texts carry no trailing newline.
const http = require('node:http');
const { onSsePayloads } = require('./sse-payloads');

const DEFAULT_THREAD_ID = 'thread_00000000000000000000000000000001';

function relayModelStream(url, text, threadId, sink) {
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
      if (sink.start) sink.start(response);
      let accumulated = '';
      onSsePayloads(response, (payload) => {
        const delta = payload.choices?.[0]?.delta;
        if (typeof delta?.content !== 'string' || delta.content === '') return;
        accumulated += delta.content;
        item.payload = { text: delta.content };
        item.updatedAt = Date.now();
        sink.frame(
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'item/agentMessage/delta',
            params: { ...item, delta: delta.content },
          }),
        );
      });
      response.on('end', () =>
        sink.end(
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'turn/completed',
            params: { threadId, status: 'completed', textLength: accumulated.length },
          }),
          response,
        ),
      );
    },
  );
  request.end(body);
}

/** The answer to a floor's `initialize` (so a client can tell the process is up before timing). */
const INITIALIZE_RESULT = { userAgent: 'floor', protocolVersion: 'v1' };

module.exports = { relayModelStream, DEFAULT_THREAD_ID, INITIALIZE_RESULT };
