'use strict';
// Tool-turn floor: the persistence benchmark's turn done by a plain Node loop, to show what such a
// turn costs before any server is involved. Each model call POSTs the whole conversation to the
// model, parses its SSE body, writes one JSONL delta line per content fragment to stdout (the
// §4.8 v1.1 shape), runs the calls' `file_info` as one fs.stat each, in parallel, stores the
// call's rows (its agent message and tool calls, final states, the same columns as the App
// Server's items table) in one transaction on a WAL sqlite3 file, then writes a started and a
// completed line per tool call. Tool calls are read as this bench model sends them, whole in one
// chunk each. The loop ends at `task_finish` and reports
// {"floorItems", "floorSeconds"} as its last line. No framework, no validation, no approvals, no
// event log, no run journal, no replay: a floor, not a server.
//   node tool-turn-loop.js <model base url> <directive text> <sqlite file> <workspace dir>
const http = require('node:http');
const { promises: fs } = require('node:fs');
const { resolve } = require('node:path');
const { randomUUID } = require('node:crypto');
const sqlite3 = require('sqlite3');
const { onSsePayloads } = require('./sse-payloads');

const [baseUrl, directive, storePath, workspace] = process.argv.slice(2);
const db = new sqlite3.Database(storePath);
/** `<prefix>_<32 hex>`, the shape of the App Server's ids. */
const newId = (prefix) => `${prefix}_${randomUUID().replace(/-/g, '')}`;
const threadId = newId('thread');
const turnId = newId('turn');

function run(sql, params = []) {
  return new Promise((resolveRun, reject) =>
    db.run(sql, params, (error) => (error ? reject(error) : resolveRun())),
  );
}

function writeLine(message) {
  return new Promise((resolveWrite) => {
    if (process.stdout.write(`${JSON.stringify(message)}\n`)) resolveWrite();
    else process.stdout.once('drain', resolveWrite);
  });
}

/** One streamed model call: content deltas go out as they arrive; resolves with the text and tool calls. */
function modelCall(messages) {
  const body = JSON.stringify({ model: 'bench-model', stream: true, messages });
  return new Promise((resolveCall, reject) => {
    const request = http.request(
      new URL(`${baseUrl}/chat/completions`),
      { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' } },
      (response) => {
        response.setEncoding('utf8');
        const itemId = newId('item');
        const calls = [];
        let text = '';
        onSsePayloads(response, (payload) => {
          const delta = payload.choices?.[0]?.delta ?? {};
          for (const call of delta.tool_calls ?? []) calls[call.index] = call;
          if (typeof delta.content !== 'string' || delta.content === '') return;
          text += delta.content;
          const now = Date.now();
          // When the pipe to the reader is full, stop reading the model until it drains (§1.8).
          const flowing = process.stdout.write(
            `${JSON.stringify({
              jsonrpc: '2.0',
              method: 'item/agentMessage/delta',
              params: {
                itemId,
                threadId,
                turnId,
                type: 'agentMessage',
                status: 'inProgress',
                createdAt: now,
                updatedAt: now,
                payload: { text: delta.content },
                delta: delta.content,
              },
            })}\n`,
          );
          if (!flowing && !response.isPaused()) {
            response.pause();
            process.stdout.once('drain', () => response.resume());
          }
        });
        response.on('end', () => resolveCall({ itemId, text, calls }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function fileInfo(args) {
  const stats = await fs.stat(resolve(workspace, args.path));
  return { ok: true, path: args.path, is_file: stats.isFile(), is_dir: stats.isDirectory(), size: stats.size };
}

(async () => {
  await run('PRAGMA journal_mode = WAL');
  await run(`CREATE TABLE "items" ("item_id" text PRIMARY KEY NOT NULL, "thread_id" text NOT NULL,
    "turn_id" text NOT NULL, "position" integer NOT NULL, "created_seq" integer NOT NULL,
    "change_seq" integer NOT NULL, "item_json" text NOT NULL)`);
  await run('CREATE UNIQUE INDEX "idx_items_thread_position" ON "items" ("thread_id", "position")');
  const began = process.hrtime.bigint();
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: directive },
  ];
  let position = 0;
  for (;;) {
    const { itemId, text, calls } = await modelCall(messages);
    messages.push({ role: 'assistant', content: text, tool_calls: calls });
    const finished = calls.some((call) => call.function.name === 'task_finish');
    const toolItems = await Promise.all(
      calls.map(async (call) => {
        const args = JSON.parse(call.function.arguments);
        const output = call.function.name === 'file_info' ? await fileInfo(args) : { ok: true };
        const started = {
          itemId: newId('item'),
          threadId,
          turnId,
          type: 'toolCall',
          status: 'inProgress',
          payload: { toolCallId: call.id, toolName: call.function.name, arguments: args },
        };
        const completed = { ...started, status: 'completed', payload: { ...started.payload, result: output } };
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) });
        return { started, completed };
      }),
    );
    // The call's rows are committed before any notification of its tool calls (the server's
    // rule, docs/spec-interpretations.md); the agent message's deltas went out before its row.
    const agentMessage = { itemId, threadId, turnId, type: 'agentMessage', status: 'completed', payload: { text } };
    await run('BEGIN');
    for (const item of [agentMessage, ...toolItems.map((entry) => entry.completed)]) {
      position += 1;
      await run('INSERT INTO "items" VALUES (?, ?, ?, ?, ?, ?, ?)', [
        item.itemId,
        threadId,
        turnId,
        position,
        position,
        position,
        JSON.stringify(item),
      ]);
    }
    await run('COMMIT');
    for (const { started, completed } of toolItems) {
      await writeLine({ jsonrpc: '2.0', method: 'item/started', params: started });
      await writeLine({ jsonrpc: '2.0', method: 'item/completed', params: completed });
    }
    if (finished) break;
  }
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  await writeLine({ floorItems: position, floorSeconds: seconds });
  process.stdin.resume();
  process.stdin.on('end', () => db.close(() => process.exit(0)));
})().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
