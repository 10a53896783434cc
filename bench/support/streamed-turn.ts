/**
 * One streamed turn of DeltaStreamModel fragments, through the App Server (a real turn on a file
 * store) or through the plain SSE→JSONL relay floor, observed the same way on both sides: every
 * delta checked in order and stamped with its read time, the time from the request write to the
 * `turn/completed` read, and optionally the child's resident set (idle just before the request,
 * peak while streaming). Warm-up streams, when given, go through the same process (the server's
 * same thread) first, so the measured one runs on a process that has streamed before.
 */
import { resolve } from 'node:path';
import { createWorkspace, startAppServer, startThread } from './app-server-launch';
import { fragmentAt, streamDirectiveText } from './delta-stream-model';
import type { DeltaStreamModelProcess } from './delta-stream-model.process';
import { type JsonMessage, JsonlPeer, type MessagePeer } from './jsonl-peer';
import { readProcMemory, RssSampler } from './proc-status';

export const RELAY_SCRIPT = resolve(__dirname, '../floors/sse-to-jsonl-relay.js');

export interface StreamLoad {
  deltas: number;
  /** Fragments per second; 0 = flood. */
  rate: number;
  /** Characters per fragment (default 1). */
  chars?: number;
}

export interface StreamOptions {
  /** Ask the model for its write times (latency figures). */
  timestamps?: boolean;
  /** Sample the child's VmRSS every 50 ms while the turn streams. */
  sampleRss?: boolean;
  /** Streams sent through the same process before the measured one, in order (not measured). */
  warmUps?: readonly StreamLoad[];
  /** Extra environment of the server (the tracing benchmark's `OTEL_*`). */
  env?: NodeJS.ProcessEnv;
}

export interface StreamedTurn {
  /** Read time (hrtime ns) of each delta, in order. */
  readAtNs: bigint[];
  /** Model write time (hrtime µs) of each fragment; empty without `timestamps`. */
  writeTimesUs: number[];
  /** Request write → turn/completed read. */
  elapsedMs: number;
  /** Request write → first delta read (a fresh process's first token). */
  firstDeltaMs: number;
  /** VmRSS just before the request (0 without `sampleRss`). */
  idleRssMiB: number;
  /** Largest VmRSS sample while streaming (0 without `sampleRss`). */
  peakRssMiB: number;
}

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** Per delta: model write (hrtime µs) → read (hrtime ns), in ms; both lists in fragment order. */
export function addedLatenciesMs(writeTimesUs: readonly number[], readAtNs: readonly bigint[]): number[] {
  if (writeTimesUs.length !== readAtNs.length)
    throw new Error(`${writeTimesUs.length} writes but ${readAtNs.length} reads`);
  return readAtNs.map((read, index) => (Number(read / 1000n) - writeTimesUs[index]) / 1000);
}

/**
 * Collects delta read times in order, checking each fragment; resolves at turn/completed. With
 * `threadId`, only that thread's notifications count (concurrent turns on one peer).
 */
export function collectDeltas(
  peer: MessagePeer,
  load: StreamLoad,
  threadId?: string,
): Promise<{ readAtNs: bigint[]; completion: JsonMessage; completedAtNs: bigint }> {
  const readAtNs: bigint[] = [];
  return new Promise((resolveRun, reject) => {
    const stop = peer.onMessage((message, readAt) => {
      if (
        threadId !== undefined &&
        (message.params as { threadId?: string } | undefined)?.threadId !== threadId
      )
        return;
      if (message.method === 'item/agentMessage/delta') {
        const delta = (message.params as { delta: string }).delta;
        const expected = fragmentAt(readAtNs.length, load.chars);
        if (delta !== expected) {
          stop();
          reject(new Error(`delta ${readAtNs.length} is ${JSON.stringify(delta)}, expected ${expected}`));
          return;
        }
        readAtNs.push(readAt);
      } else if (message.method === 'turn/completed') {
        stop();
        if (readAtNs.length !== load.deltas)
          reject(new Error(`received ${readAtNs.length} of ${load.deltas} deltas`));
        else resolveRun({ readAtNs, completion: message.params as JsonMessage, completedAtNs: readAt });
      }
    });
  });
}

function directive(tag: string, load: StreamLoad, options: StreamOptions): string {
  return streamDirectiveText({
    deltas: load.deltas,
    calls: 1,
    tools: 0,
    timestamps: options.timestamps === true,
    tag,
    rate: load.rate,
    chars: load.chars,
  });
}

/** Streams through `peer` once `send` wrote the request; shared by the server and the floor. */
async function observe(
  peer: JsonlPeer,
  model: DeltaStreamModelProcess,
  tag: string,
  load: StreamLoad,
  options: StreamOptions,
  send: (text: string) => Promise<unknown>,
): Promise<StreamedTurn> {
  let idleRssMiB = 0;
  if (options.sampleRss) {
    // Long enough for a fresh relay process to have finished loading.
    await sleep(500);
    idleRssMiB = readProcMemory(peer.pid).rssMiB;
  }
  const sampler = options.sampleRss ? new RssSampler(peer.pid, 50) : undefined;
  const deltas = collectDeltas(peer, load);
  const began = process.hrtime.bigint();
  await send(directive(tag, load, options));
  const { readAtNs, completion, completedAtNs } = await deltas;
  const peakRssMiB = sampler?.stop().maxRssMiB ?? 0;
  if (completion.status !== 'completed') throw new Error(`turn ended ${JSON.stringify(completion)}`);
  return {
    readAtNs,
    writeTimesUs: options.timestamps ? await model.writeTimes(tag) : [],
    elapsedMs: Number(completedAtNs - began) / 1e6,
    firstDeltaMs: Number(readAtNs[0] - began) / 1e6,
    idleRssMiB,
    peakRssMiB,
  };
}

/** `options.warmUps` through `peer` (turns 0…n-1), then the measured stream (turn n). */
async function observeAfterWarmUps(
  peer: JsonlPeer,
  model: DeltaStreamModelProcess,
  tag: string,
  load: StreamLoad,
  options: StreamOptions,
  send: (text: string, turn: number) => Promise<unknown>,
): Promise<StreamedTurn> {
  const warmUps = options.warmUps ?? [];
  for (const [turn, warmUp] of warmUps.entries())
    await observe(peer, model, `${tag}-warm-up-${turn}`, warmUp, {}, (text) => send(text, turn));
  return observe(peer, model, tag, load, options, (text) => send(text, warmUps.length));
}

/** A real turn on a fresh server (file store) whose model streams `load`. */
export async function streamThroughServer(
  model: DeltaStreamModelProcess,
  tag: string,
  load: StreamLoad,
  options: StreamOptions = {},
): Promise<StreamedTurn> {
  const workspace = createWorkspace(model.baseUrl);
  const server = await startAppServer(workspace, resolve(workspace.dir, 'stream.sqlite'), [], options.env);
  try {
    const threadId = await startThread(server, workspace, 'thread');
    return await observeAfterWarmUps(server, model, tag, load, options, (text, turn) =>
      server.call(`turn-${turn}`, 'turn/start', { threadId, input: [{ type: 'text', text }] }),
    );
  } finally {
    await server.close();
    workspace.dispose();
  }
}

/** The same stream through a fresh plain-Node relay floor process. */
export async function streamThroughRelay(
  model: DeltaStreamModelProcess,
  tag: string,
  load: StreamLoad,
  options: StreamOptions = {},
): Promise<StreamedTurn> {
  const relay = JsonlPeer.spawnNode([RELAY_SCRIPT]);
  try {
    // Up and reading, as the server is once initialized: the process start is not the stream's.
    await relay.call(0, 'initialize', {});
    return await observeAfterWarmUps(relay, model, tag, load, options, async (text, turn) =>
      relay.send({ jsonrpc: '2.0', id: turn + 1, method: 'relay', params: { url: model.baseUrl, text } }),
    );
  } finally {
    await relay.close();
  }
}
