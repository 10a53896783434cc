/**
 * `-r` preload for the heap-at-delta driver: every 100 ms writes one stderr line with the V8 heap
 * (used/total), external and array-buffer memory and RSS in MiB, so RSS growth can be split into
 * live heap, heap not yet collected and off-heap memory. stderr only: stdout stays protocol.
 */
'use strict';
const v8 = require('node:v8');

const mib = (bytes) => (bytes / 1048576).toFixed(1);
setInterval(() => {
  const memory = process.memoryUsage();
  const spaces = Object.fromEntries(
    v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.space_used_size]),
  );
  process.stderr.write(
    `heap-sample used=${mib(memory.heapUsed)} total=${mib(memory.heapTotal)} external=${mib(memory.external)} ` +
      `buffers=${mib(memory.arrayBuffers)} rss=${mib(memory.rss)} new=${mib(spaces.new_space ?? 0)} old=${mib(spaces.old_space ?? 0)} ` +
      `large=${mib(spaces.large_object_space ?? 0)}\n`,
  );
}, 100).unref();
