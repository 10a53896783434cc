/**
 * A throwaway PostgreSQL server for the test suites (docs/spec/postgres.md §3): the distribution's binaries
 * (installed with apt-get when missing and allowed), a fresh data directory and socket directory
 * under the temp dir, listening on 127.0.0.1 and a free port, password authentication over TCP.
 * initdb refuses root, so as root the cluster runs as the `postgres` user. Stopped and deleted by
 * `stop()`; nothing outlives the test run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Percent-encoding needed: the suites check that the URL's password is decoded and never shown. */
export const TEST_POSTGRES_PASSWORD = 'pw:s3cr/t@vv%1';

export interface RunningCluster {
  /** The superuser URL of the `postgres` database, password percent-encoded. */
  adminUrl: string;
  dataDir: string;
  runAs: string | null;
  binDir: string;
}

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(root, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found !== '' ? join(found, '..') : null;
}

/** The binaries, installing the distribution package first when root and they are missing. */
export function ensurePostgresBinaries(): string {
  const present = findBinDir();
  if (present !== null) return present;
  if (process.getuid?.() !== 0) {
    throw new Error('PostgreSQL binaries not found: install the postgresql package (initdb, pg_ctl)');
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  const installed = findBinDir();
  if (installed === null) throw new Error('apt-get installed postgresql but initdb was not found');
  return installed;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

function run(cluster: Pick<RunningCluster, 'runAs' | 'binDir'>, tool: string, args: string[]): void {
  const command = join(cluster.binDir, tool);
  const [file, argv] =
    cluster.runAs === null ? [command, args] : ['runuser', ['-u', cluster.runAs, '--', command, ...args]];
  const result = spawnSync(file, argv, { encoding: 'utf8', cwd: tmpdir() });
  if (result.status !== 0) {
    throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}

export async function startPostgresCluster(): Promise<RunningCluster> {
  const binDir = ensurePostgresBinaries();
  const runAs = process.getuid?.() === 0 ? 'postgres' : null;
  const base = mkdtempSync(join(tmpdir(), 'vv-pg-'));
  const dataDir = join(base, 'data');
  const socketDir = join(base, 'socket');
  const passwordFile = join(base, 'password');
  writeFileSync(passwordFile, `${TEST_POSTGRES_PASSWORD}\n`);
  mkdirSync(socketDir);
  if (runAs !== null) {
    const { uid, gid } = lookupUser(runAs);
    for (const path of [base, passwordFile, socketDir]) chownSync(path, uid, gid);
  }
  chmodSync(base, 0o700);
  const cluster = { adminUrl: '', dataDir, runAs, binDir };
  run(cluster, 'initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    `--pwfile=${passwordFile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '--no-sync',
    '--no-instructions',
  ]);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${socketDir}`,
    `-c listen_addresses=127.0.0.1`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c shared_buffers=32MB',
  ].join(' ');
  run(cluster, 'pg_ctl', [
    '-D',
    dataDir,
    '-o',
    settings,
    '-l',
    join(base, 'server.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  cluster.adminUrl = `postgres://postgres:${encodeURIComponent(TEST_POSTGRES_PASSWORD)}@127.0.0.1:${port}/postgres`;
  return cluster;
}

export function stopPostgresCluster(cluster: RunningCluster): void {
  try {
    run(cluster, 'pg_ctl', ['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop']);
  } finally {
    rmSync(join(cluster.dataDir, '..'), { recursive: true, force: true });
  }
}

function lookupUser(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}
