'use strict';
// WebSocket floor: a plain `ws` server on 127.0.0.1 (port 0; prints `floor listening on ws://…`
// on stderr, like the App Server). Every text frame is one JSON-RPC request: `initialize` is
// answered with a small result; `relay` {"url", "text", "threadId"?} streams the model's response
// through floors/model-relay.js and sends each notification text, built once, to every connected
// client (then turn/completed). No framework, no persistence, no per-connection queue limit.
const { WebSocketServer } = require('ws');
const { relayModelStream, DEFAULT_THREAD_ID, INITIALIZE_RESULT } = require('./model-relay');

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const broadcast = (frame) => {
  for (const client of server.clients) client.send(frame);
};

server.on('connection', (socket) => {
  socket.on('message', (data) => {
    const request = JSON.parse(data.toString());
    if (request.method === 'relay') {
      const { url, text, threadId = DEFAULT_THREAD_ID } = request.params;
      relayModelStream(url, text, threadId, { frame: broadcast, end: broadcast });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { status: 'running' } }));
    } else {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: INITIALIZE_RESULT }));
    }
  });
});
server.on('listening', () => {
  process.stderr.write(`floor listening on ws://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
