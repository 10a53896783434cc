#!/usr/bin/env node
/**
 * Summarises a V8 .heapsnapshot without DevTools: self size and count per (node type, name),
 * biggest first, and for the names given after the file, a few retainer chains (each step to a
 * retainer nearer the GC roots) so the owner of many small objects can be read off.
 *
 *   node bench/profiling/heap-summary.js peak.heapsnapshot [top=40] [Name …]
 */
'use strict';
const fs = require('node:fs');

const [file, topArg, ...names] = process.argv.slice(2);
const depth = Number(process.env.HEAP_DEPTH ?? 6);
const top = Number(topArg ?? 40);
const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
const meta = snap.snapshot.meta;
const nodeFields = meta.node_fields;
const edgeFields = meta.edge_fields;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const N = nodeFields.length;
const E = edgeFields.length;
const nodes = snap.nodes;
const edges = snap.edges;
const strings = snap.strings;
const fType = nodeFields.indexOf('type');
const fName = nodeFields.indexOf('name');
const fSize = nodeFields.indexOf('self_size');
const fEdges = nodeFields.indexOf('edge_count');
const eType = edgeFields.indexOf('type');
const eName = edgeFields.indexOf('name_or_index');
const eTo = edgeFields.indexOf('to_node');
const count = nodes.length / N;

const label = (i) => {
  const type = nodeTypes[nodes[i * N + fType]];
  const name = strings[nodes[i * N + fName]];
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return `(${type})`;
  return `${type}:${name.slice(0, 60)}`;
};

const groups = new Map();
let total = 0;
for (let i = 0; i < count; i += 1) {
  const key = label(i);
  const size = nodes[i * N + fSize];
  total += size;
  const group = groups.get(key) ?? { size: 0, count: 0 };
  group.size += size;
  group.count += 1;
  groups.set(key, group);
}
console.log(`total self size ${(total / 1048576).toFixed(1)} MiB in ${count} nodes`);
for (const [key, group] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, top)) {
  console.log(`${(group.size / 1048576).toFixed(2).padStart(8)} MiB ${String(group.count).padStart(9)}  ${key}`);
}

if (names.length > 0) {
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, offset = 0; i < count; i += 1) {
    firstEdge[i] = offset;
    offset += nodes[i * N + fEdges] * E;
    firstEdge[i + 1] = offset;
  }
  // Reverse edges and BFS distance from the root (node 0), ignoring weak edges.
  const retainers = Array.from({ length: count }, () => []);
  for (let i = 0; i < count; i += 1) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
      if (edgeTypes[edges[e + eType]] === 'weak') continue;
      retainers[edges[e + eTo] / N].push([i, e]);
    }
  }
  const distance = new Int32Array(count).fill(-1);
  distance[0] = 0;
  const queue = [0];
  for (let q = 0; q < queue.length; q += 1) {
    const i = queue[q];
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
      if (edgeTypes[edges[e + eType]] === 'weak') continue;
      const to = edges[e + eTo] / N;
      if (distance[to] === -1) {
        distance[to] = distance[i] + 1;
        queue.push(to);
      }
    }
  }
  const edgeLabel = (e) => {
    const type = edgeTypes[edges[e + eType]];
    const value = edges[e + eName];
    return type === 'element' || type === 'hidden' ? `[${value}]` : `.${strings[value]}`;
  };
  const owner = (i) => {
    // The chain of retainer labels (nearest first), indices dropped, so instances group by owner.
    const chain = [];
    let at = i;
    for (let step = 0; step < depth && at !== 0; step += 1) {
      let best = null;
      for (const [from, e] of retainers[at]) {
        if (distance[from] >= 0 && distance[from] < distance[at]) {
          best = [from, e];
          break;
        }
      }
      if (best === null) break;
      const [from, e] = best;
      const edge = edgeLabel(e).startsWith('[') ? '[]' : edgeLabel(e);
      chain.push(`${label(from)}${edge}`);
      at = from;
    }
    return chain.join(' ← ');
  };
  for (const name of names) {
    const byOwner = new Map();
    let instances = 0;
    for (let i = 0; i < count; i += 1) {
      if (label(i) !== name) continue;
      instances += 1;
      const key = owner(i);
      const group = byOwner.get(key) ?? { size: 0, count: 0 };
      group.size += nodes[i * N + fSize];
      group.count += 1;
      byOwner.set(key, group);
    }
    console.log(`\nowners of ${name} (${instances} instances), by self size:`);
    for (const [key, group] of [...byOwner].sort((a, b) => b[1].size - a[1].size).slice(0, 8)) {
      console.log(`  ${(group.size / 1048576).toFixed(2)} MiB ${group.count}× ← ${key}`);
    }
  }
}
