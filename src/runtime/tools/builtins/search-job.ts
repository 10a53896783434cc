/**
 * The part of `search_files` that touches file contents: reading each candidate (at most
 * {@link MAX_SEARCH_FILE_BYTES} of it, through a descriptor, never the whole of a huge file) and
 * running the regex over it. It runs in a worker thread (search-in-worker.ts), because a
 * JavaScript regex can backtrack for hours (`^(a+)+$` on `aaaa…a!`) and nothing can interrupt it on
 * the thread that runs it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

import { isDescriptorConfined } from './confined-open';
import { looksBinary } from './file-types';
import type { SearchFindings } from './search-report';
import { matchFile, type MatchOptions } from './search-matcher';

/** Bytes of one file that are searched; the rest of a bigger file is left out (and counted). */
export const MAX_SEARCH_FILE_BYTES = 16 * 1024 * 1024;

export interface SearchJobTarget {
  absolute: string;
  workspaceRelative: string;
}

export interface SearchJob {
  source: string;
  flags: string;
  targets: SearchJobTarget[];
  /** Real path of the workspace root: each opened file must lie inside (symlink swaps). */
  realWorkspaceRoot: string;
  options: Omit<MatchOptions, 'regex'>;
  maxFileBytes: number;
}

export interface SearchJobResult {
  findings: SearchFindings;
  filesSearched: number;
  /** Files of which only the first `maxFileBytes` were searched. */
  filesCut: string[];
}

/** Up to `limit` bytes from the start of a file (plus whether there was more), or null if unreadable. */
function readHead(
  absolute: string,
  limit: number,
  realWorkspaceRoot: string,
): { bytes: Buffer; cut: boolean } | null {
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    // Checked on the descriptor that is read: a symlink swapped in after the walk is not followed out.
    if (!isDescriptorConfined(fd, realWorkspaceRoot) || !fstatSync(fd).isFile()) return null;
    const buffer = Buffer.allocUnsafe(Math.min(limit + 1, 1024 * 1024));
    const parts: Buffer[] = [];
    let total = 0;
    while (total <= limit) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, limit + 1 - total), null);
      if (read === 0) break;
      parts.push(Buffer.from(buffer.subarray(0, read)));
      total += read;
    }
    const bytes = Buffer.concat(parts);
    return bytes.length > limit ? { bytes: bytes.subarray(0, limit), cut: true } : { bytes, cut: false };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

export function runSearchJob(job: SearchJob): SearchJobResult {
  const regex = new RegExp(job.source, job.flags);
  const options: MatchOptions = { ...job.options, regex };
  const findings: SearchFindings = { fileCounts: [], rows: [], totalMatches: 0 };
  const filesCut: string[] = [];
  let filesSearched = 0;
  for (const target of job.targets) {
    const head = readHead(target.absolute, job.maxFileBytes, job.realWorkspaceRoot);
    if (head === null || looksBinary(head.bytes)) continue;
    if (head.cut) filesCut.push(target.workspaceRelative);
    filesSearched += 1;
    // Lenient: a stray invalid byte should not hide the rest of a text file from search.
    const text = new TextDecoder('utf-8').decode(head.bytes);
    const result = matchFile(target.workspaceRelative, text, options);
    if (result.matches === 0) continue;
    findings.fileCounts.push([target.workspaceRelative, result.matches]);
    findings.totalMatches += result.matches;
    for (const row of result.rows) findings.rows.push(row);
  }
  return { findings, filesSearched, filesCut };
}
