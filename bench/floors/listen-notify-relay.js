'use strict';
// Cross-instance floor: bare PostgreSQL LISTEN/NOTIFY between two plain Node processes, as two App
// Server instances share one database (docs/spec/postgres.md §2).
//   node listen-notify-relay.js publish <database url>: each JSONL request {"id", "params": {"url",
//     "text"}} streams the model's response through floors/model-relay.js and sends every
//     notification text with `SELECT pg_notify(channel, text)` on its one connection (queued by
//     the driver, in order), then the turn/completed text.
//   node listen-notify-relay.js listen <database url>: LISTENs on the channel and writes every
//     payload it receives as one JSONL line on stdout.
// Both answer `initialize` once their connection is up (the listener once LISTEN is in force). No
// event log, no rows, no framework.
const { Client } = require('pg');
const { relayModelStream, INITIALIZE_RESULT } = require('./model-relay');
const { onStdinRequests } = require('./stdin-requests');

const CHANNEL = 'vv_bench_floor';
const [mode, databaseUrl] = process.argv.slice(2);
const client = new Client({ connectionString: databaseUrl });
const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

const ready = client.connect().then(async () => {
  if (mode !== 'listen') return;
  client.on('notification', (message) => process.stdout.write(`${message.payload}\n`));
  await client.query(`LISTEN ${CHANNEL}`);
});

const notify = (text) => void client.query('SELECT pg_notify($1, $2)', [CHANNEL, text]);

onStdinRequests(
  (request) =>
    void ready.then(() => {
      if (request.method === 'relay' && mode === 'publish') {
        relayModelStream(request.params.url, request.params.text, request.params.threadId, {
          frame: notify,
          end: notify,
        });
        answer(request.id, { status: 'running' });
      } else answer(request.id, INITIALIZE_RESULT);
    }),
  () => void client.end().then(() => process.exit(0)),
);
