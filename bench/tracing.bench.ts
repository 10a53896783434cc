/**
 * Tracing cost (docs/spec/observability.md §5): the streaming benchmark's flood (20 000 fragments,
 * then `task_finish`) through the server with tracing and metrics exported over OTLP/HTTP to a
 * local receiver, against the same stream with observability off. Figure: deltas/s on / off;
 * target ≥ 0.9×. Off and on alternate run by run so that machine noise hits both alike.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeltaStreamModelProcess } from './support/delta-stream-model.process';
import { figure, type FigureGroup } from './support/figure';
import { median } from './support/stats';
import { streamThroughServer, type StreamedTurn } from './support/streamed-turn';

const DELTAS = 20_000;
/** Odd, and more than the streaming group's 3: the ratio of two medians is noisier than either. */
const RUNS = 7;

/** A collector stand-in that reads and discards every export, counting what arrived. */
async function startReceiver(): Promise<{
  endpoint: string;
  exports: () => number;
  close: () => Promise<void>;
}> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function deltasPerSecond(turn: StreamedTurn): number {
  const first = turn.writeTimesUs[0];
  const last = Number(turn.readAtNs[turn.readAtNs.length - 1] / 1000n);
  return turn.readAtNs.length / ((last - first) / 1e6);
}

export async function runTracingBenchmark(): Promise<FigureGroup> {
  const model = await DeltaStreamModelProcess.start();
  const receiver = await startReceiver();
  // The default protocol (http/protobuf), with a short metric interval so metrics export during the turn.
  const tracingOn = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_METRIC_EXPORT_INTERVAL: '1000',
  };
  try {
    const off: number[] = [];
    const on: number[] = [];
    const load = { deltas: DELTAS, rate: 0 };
    for (let run = 0; run < RUNS; run += 1) {
      off.push(deltasPerSecond(await streamThroughServer(model, `off-${run}`, load, { timestamps: true })));
      on.push(
        deltasPerSecond(
          await streamThroughServer(model, `on-${run}`, load, { timestamps: true, env: tracingOn }),
        ),
      );
    }
    return {
      streamingWithTracing: figure({
        value: median(on),
        floor: median(off),
        unit: 'deltas/s',
        runs: RUNS,
        better: 'higher',
        description: `${DELTAS} streamed fragments with traces and metrics exported over OTLP/HTTP to a local receiver, vs observability off`,
        details: { on, off, exportsReceived: receiver.exports() },
        target: { on: 'ratio', bound: 'min', limit: 0.9 },
      }),
    };
  } finally {
    await receiver.close();
    await model.close();
  }
}
