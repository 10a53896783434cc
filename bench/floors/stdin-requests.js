'use strict';
// Shared by the plain-Node floors that serve several requests: calls `handle` with each parsed
// JSONL line of stdin, and calls `onEnd` once stdin closes.
function onStdinRequests(handle, onEnd) {
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line.trim() !== '') handle(JSON.parse(line));
    }
  });
  process.stdin.on('end', onEnd);
}

module.exports = { onStdinRequests };
