'use strict';
// Cold-start floor: a plain Node process that reads one JSONL line from stdin, answers it with a
// JSON-RPC result on stdout, and exits. The App Server's spawn → initialize time is compared to it.
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  const end = buffered.indexOf('\n');
  if (end === -1) return;
  const request = JSON.parse(buffered.slice(0, end));
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { userAgent: 'floor', protocolVersion: 'v1' } })}\n`,
  );
  process.exit(0);
});
