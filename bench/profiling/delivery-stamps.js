/**
 * `-r` preload for paced-decompose.ts: stamps, in hrtime µs (CLOCK_MONOTONIC, comparable with the
 * bench model's write times), every model-socket data chunk with the content fragments it holds,
 * every stdout flush with the deltas it holds, every sqlite3 statement's call and callback, and
 * every GC. Lines go to `$STAMP_LOG.<pid>` at exit, never to stdout (protocol only).
 *   R <µs> <fragments> | F <µs> <deltas> | S <call µs> <callback µs> <method> <sql…> | G <µs> <kind> <ms>
 */
'use strict';
const { writeFileSync } = require('node:fs');
const net = require('node:net');
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');

const lines = [];
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const occurrences = (chunk, needle) => {
  const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
};

const emit = net.Socket.prototype.emit;
net.Socket.prototype.emit = function stampedEmit(event, chunk) {
  if (event === 'data' && this !== process.stdin && this.remotePort) {
    const fragments = occurrences(chunk, '"content":"');
    if (fragments > 0) lines.push(`R ${nowUs()} ${fragments}`);
  }
  return emit.apply(this, arguments);
};

const stdout = process.stdout;
const write = stdout._write;
const writev = stdout._writev;
stdout._write = function stampedWrite(chunk, encoding, callback) {
  const deltas = occurrences(chunk, 'agentMessage/delta');
  if (deltas > 0) lines.push(`F ${nowUs()} ${deltas}`);
  return write.call(this, chunk, encoding, callback);
};
if (writev) {
  stdout._writev = function stampedWritev(chunks, callback) {
    const deltas = chunks.reduce((sum, entry) => sum + occurrences(entry.chunk, 'agentMessage/delta'), 0);
    if (deltas > 0) lines.push(`F ${nowUs()} ${deltas}`);
    return writev.call(this, chunks, callback);
  };
}

try {
  // The driver stays outside the CLI bundle, so this is the instance the server uses.
  const sqlite3 = require(require.resolve('sqlite3', { paths: [__dirname] }));
  for (const method of ['run', 'all', 'exec', 'get']) {
    const original = sqlite3.Database.prototype[method];
    sqlite3.Database.prototype[method] = function stampedStatement(sql, ...rest) {
      const calledAt = nowUs();
      const sqlHead = String(sql).replace(/\s+/g, ' ').trim().slice(0, 40);
      const index = rest.findIndex((argument) => typeof argument === 'function');
      if (index >= 0) {
        const callback = rest[index];
        rest[index] = function stampedCallback(...results) {
          lines.push(`S ${calledAt} ${nowUs()} ${method} ${sqlHead}`);
          return callback.apply(this, results);
        };
      }
      return original.call(this, sql, ...rest);
    };
  }
} catch (error) {
  process.stderr.write(`delivery-stamps: sqlite3 not stamped (${error})\n`);
}

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const originUs = nowUs() - Math.round(performance.now() * 1000);
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const startUs = originUs + Math.round(entry.startTime * 1000);
    lines.push(`G ${startUs} ${GC_KINDS[entry.detail.kind] ?? entry.detail.kind} ${entry.duration.toFixed(2)}`);
  }
}).observe({ entryTypes: ['gc'] });

process.on('exit', () => writeFileSync(`${process.env.STAMP_LOG ?? '/tmp/delivery-stamps'}.${process.pid}`, lines.join('\n')));
