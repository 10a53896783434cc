'use strict';
// Preload for relay-cpu-sensitivity.ts: before each stdout write (the relay floor writes one line
// per delta) the process spins BUSY_WRITE_US microseconds of main-thread CPU, standing in for the
// work a server does per delta beyond the relay's.
const spinUs = Number(process.env.BUSY_WRITE_US ?? 0);
if (spinUs > 0) {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (...args) => {
    const until = process.hrtime.bigint() + BigInt(Math.round(spinUs * 1000));
    while (process.hrtime.bigint() < until);
    return write(...args);
  };
}
