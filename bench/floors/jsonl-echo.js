'use strict';
// Request-throughput floor: a plain Node JSONL server that parses every request line and answers
// it with a small result object, as fast as readline allows (no queue limit, no validation).
const readline = require('node:readline');

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const request = JSON.parse(line);
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { echo: request.method } })}\n`,
  );
});
lines.on('close', () => process.exit(0));
