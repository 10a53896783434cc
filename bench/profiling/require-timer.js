'use strict';
// Preload (`node -r bench/profiling/require-timer.js dist/main.js app-server …`): where cold start
// goes. Wraps Module._load and records, per package (node_modules/<pkg>, or own:dist/<dir>), the
// self time of its module loads (evaluation included, children excluded) and which package or own
// directory first required it; also the time of the first stdout write (the initialize answer)
// and of the last module load. All times are ms since process start (performance.now()). Written
// as JSON at exit to $REQUIRE_TIMER_OUT (default: stderr). See docs/performance-notes.md.
const Module = require('node:module');
const { writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');

const preloadAtMs = performance.now();
const originalLoad = Module._load;
const stack = [];
const selfMs = new Map();
const loads = new Map();
const firstImporter = new Map();
let lastLoadEndMs = 0;
let firstStdoutMs = null;

// stdout-guard binds process.stdout.write at start-up: wrapping it here sees protocol writes too.
const stdoutWrite = process.stdout.write;
process.stdout.write = function (...args) {
  if (firstStdoutMs === null) firstStdoutMs = performance.now();
  return stdoutWrite.apply(this, args);
};

function ownerOf(file) {
  if (!file.includes('/')) return 'node:builtin';
  const modules = file.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [scope, name] = file.slice(modules + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const dist = file.lastIndexOf('/dist/');
  if (dist === -1) return file;
  const parts = file.slice(dist + '/dist/'.length).split('/');
  return `own:dist/${parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]}`;
}

function ownerOfRequest(request, parent) {
  try {
    return ownerOf(Module._resolveFilename(request, parent));
  } catch {
    return `unresolved:${request}`;
  }
}

Module._load = function (request, parent) {
  const owner = ownerOfRequest(request, parent);
  if (!firstImporter.has(owner))
    firstImporter.set(owner, parent?.filename ? ownerOf(parent.filename) : 'root');
  const frame = { startMs: performance.now(), childMs: 0 };
  stack.push(frame);
  try {
    return originalLoad.apply(this, arguments);
  } finally {
    stack.pop();
    const inclusiveMs = performance.now() - frame.startMs;
    selfMs.set(owner, (selfMs.get(owner) ?? 0) + inclusiveMs - frame.childMs);
    loads.set(owner, (loads.get(owner) ?? 0) + 1);
    if (stack.length > 0) stack[stack.length - 1].childMs += inclusiveMs;
    lastLoadEndMs = performance.now();
  }
};

process.on('exit', () => {
  const packages = [...selfMs.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([owner, ms]) => ({
      owner,
      selfMs: Number(ms.toFixed(1)),
      loads: loads.get(owner),
      firstImporter: firstImporter.get(owner),
    }));
  const report = JSON.stringify({ preloadAtMs, lastLoadEndMs, firstStdoutMs, packages });
  if (process.env.REQUIRE_TIMER_OUT) writeFileSync(process.env.REQUIRE_TIMER_OUT, report);
  else process.stderr.write(`${report}\n`);
});
