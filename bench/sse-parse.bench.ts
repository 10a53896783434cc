/**
 * SSE parse benchmark: a ~10 MB recorded-style chat-completions stream is parsed by `SseParser` +
 * `StreamAssembler` (bytes in, assembled response out) and compared with raw `JSON.parse` of the
 * same payloads in the same process, so the ratio is meaningful on any machine.
 *
 * Run: npx ts-node --transpile-only bench/sse-parse.bench.ts
 */
import { SseParser } from '../src/runtime/llm/sse-parser';
import { StreamAssembler } from '../src/runtime/llm/stream-assembler';
import type { StreamCallbacks } from '../src/runtime/model/types';

export interface SseBenchmarkResult {
  /** Parser + assembler throughput over the raw stream bytes, MB/s (1 MB = 10^6 bytes). */
  valueMBps: number;
  /** `JSON.parse` throughput over the same payloads, MB/s. */
  floorMBps: number;
  /** valueMBps / floorMBps. */
  ratio: number;
  runs: number;
}

const TARGET_BYTES = 10 * 1024 * 1024;
const READ_SIZE = 16 * 1024;
const RUNS = 7;

const TEXTS = [
  'The quick brown fox jumps over the lazy dog. ',
  'Résumé: naïve café — ',
  '数据流解析 ',
  'emoji 🎉🚀 ',
  'function add(a, b) {\n  return a + b;\n}\n',
  '"quoted" and \\escaped\\ text\t',
];

function chunkEnvelope(delta: Record<string, unknown>, index: number): string {
  return JSON.stringify({
    id: 'chatcmpl-9xYzAbCdEfGhIjKlMnOpQrSt',
    object: 'chat.completion.chunk',
    created: 1767225600 + Math.floor(index / 50),
    model: 'kimi-k3',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
  });
}

/** Reasoning, then content, then two parallel tool calls with fragmented arguments, then usage. */
function buildRecordedStream(targetBytes: number): { bytes: Buffer; payloads: string[] } {
  const payloads: string[] = [
    JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }),
  ];
  const parts: string[] = [`data: ${payloads[0]}\n\n`];
  let size = parts[0].length;
  let index = 0;
  while (size < targetBytes) {
    const phase = index % 10;
    const text = TEXTS[index % TEXTS.length];
    let payload: string;
    if (phase < 2) payload = chunkEnvelope({ reasoning_content: text }, index);
    else if (phase < 7) payload = chunkEnvelope({ content: text }, index);
    else {
      const call = phase % 2;
      const fragment: Record<string, unknown> = {
        index: call,
        function: { arguments: JSON.stringify(text).slice(1, -1) },
      };
      if (index < 10)
        Object.assign(fragment, {
          id: `call_${call}`,
          type: 'function',
          function: { name: 'write_file', arguments: '{"content":"' },
        });
      payload = chunkEnvelope({ tool_calls: [fragment] }, index);
    }
    payloads.push(payload);
    const event = index % 100 === 0 ? `: keep-alive\n\ndata: ${payload}\n\n` : `data: ${payload}\n\n`;
    parts.push(event);
    size += Buffer.byteLength(event);
    index += 1;
  }
  const usage = JSON.stringify({
    choices: [],
    usage: { prompt_tokens: 1000, completion_tokens: index, total_tokens: 1000 + index },
  });
  payloads.push(usage);
  parts.push(`data: ${usage}\n\ndata: [DONE]\n\n`);
  return { bytes: Buffer.from(parts.join(''), 'utf8'), payloads };
}

function split(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    pieces.push(bytes.subarray(offset, offset + size));
  return pieces;
}

const NO_CALLBACKS: StreamCallbacks = {
  onContent: () => undefined,
  onReasoning: () => undefined,
  onToolCallNamed: () => undefined,
  onToolCallArguments: () => undefined,
};

function parseStream(pieces: Buffer[]): number {
  const parser = new SseParser();
  const assembler = new StreamAssembler(NO_CALLBACKS);
  for (const piece of pieces) {
    for (const payload of parser.push(piece)) assembler.acceptPayload(payload);
  }
  for (const payload of parser.end()) assembler.acceptPayload(payload);
  return assembler.finish().content.length;
}

function parseJsonOnly(payloads: string[]): number {
  let checksum = 0;
  for (const payload of payloads) checksum += (JSON.parse(payload) as { choices: unknown[] }).choices.length;
  return checksum;
}

function secondsOf(work: () => number): number {
  const start = process.hrtime.bigint();
  if (work() < 0) throw new Error('unreachable');
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function runSseBenchmark(): Promise<SseBenchmarkResult> {
  const { bytes, payloads } = buildRecordedStream(TARGET_BYTES);
  const pieces = split(bytes, READ_SIZE);
  const streamMB = bytes.length / 1e6;
  const payloadMB = payloads.reduce((sum, payload) => sum + Buffer.byteLength(payload), 0) / 1e6;

  // Warm both paths up before timing; runs alternate so drift affects both alike.
  parseStream(pieces);
  parseJsonOnly(payloads);
  const parseTimes: number[] = [];
  const jsonTimes: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    parseTimes.push(secondsOf(() => parseStream(pieces)));
    jsonTimes.push(secondsOf(() => parseJsonOnly(payloads)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  const valueMBps = streamMB / median(parseTimes);
  const floorMBps = payloadMB / median(jsonTimes);
  return { valueMBps, floorMBps, ratio: valueMBps / floorMBps, runs: RUNS };
}

if (require.main === module) {
  void runSseBenchmark().then((result) => {
    console.log(
      `sse-parse: ${result.valueMBps.toFixed(1)} MB/s (parser + assembler), ` +
        `JSON.parse ${result.floorMBps.toFixed(1)} MB/s, ratio ${result.ratio.toFixed(2)}, runs ${result.runs}`,
    );
  });
}
