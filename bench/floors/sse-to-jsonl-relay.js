'use strict';
// Streaming floor: a plain Node proxy. Each JSONL request {"id", "params": {"url", "text",
// "threadId"?}} streams the model's response through floors/model-relay.js and writes one JSONL
// notification per content fragment, then a turn/completed line. It serves several requests at
// once (concurrent turns: notifications carry the request's threadId) and answers `initialize`
// (so a bench can wait for the process to be up). No framework, no persistence, no runtime.
// It honours stdout backpressure as the App Server must (docs/spec/protocol.md §1.8): when the pipe to the
// reader is full it pauses reading the model's responses until stdout drains. Ignoring it made
// the floor buffer every unread line in memory (~130 MiB over a 100 000-chunk turn) — a floor that
// no spec-abiding server may copy, so its memory growth was no floor at all.
const { relayModelStream, DEFAULT_THREAD_ID, INITIALIZE_RESULT } = require('./model-relay');
const { onStdinRequests } = require('./stdin-requests');

const streaming = new Set();
process.stdout.on('drain', () => {
  for (const response of streaming) response.resume();
});

function writeLine(line) {
  if (process.stdout.write(line)) return;
  for (const response of streaming) response.pause();
}

const answer = (id, result) => `${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`;

function relay(id, url, text, threadId = DEFAULT_THREAD_ID) {
  relayModelStream(url, text, threadId, {
    start: (response) => streaming.add(response),
    frame: (frame) => writeLine(`${frame}\n`),
    end: (frame, response) => {
      streaming.delete(response);
      writeLine(`${frame}\n`);
    },
  });
  process.stdout.write(answer(id, { status: 'running' }));
}

onStdinRequests(
  (message) => {
    if (message.method === 'initialize') process.stdout.write(answer(message.id, INITIALIZE_RESULT));
    else relay(message.id, message.params.url, message.params.text, message.params.threadId);
  },
  () => process.exit(0),
);
