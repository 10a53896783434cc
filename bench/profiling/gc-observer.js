/**
 * `-r` preload for diagnosis: appends one line per garbage collection (time since start, kind,
 * duration in ms) to the file named by GC_LOG, so pauses can be placed against delta latencies.
 * Never writes to stdout (protocol only).
 *   BENCH_SERVER_NODE_ARGS="-r ./bench/profiling/gc-observer.js" GC_LOG=/tmp/gc.txt …
 */
'use strict';
const { appendFileSync } = require('node:fs');
const { PerformanceObserver, constants } = require('node:perf_hooks');

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const target = process.env.GC_LOG;
if (target) {
  new PerformanceObserver((list) => {
    const lines = list
      .getEntries()
      .map(
        (entry) =>
          `${process.pid} ${entry.startTime.toFixed(1)} ${KINDS[entry.detail.kind] ?? entry.detail.kind} ${entry.duration.toFixed(2)}\n`,
      );
    appendFileSync(target, lines.join(''));
  }).observe({ entryTypes: ['gc'] });
}
