/** Resident memory of a process from /proc/<pid>/status (Linux), and a periodic peak sampler. */
import { readFileSync } from 'node:fs';

export interface ProcMemory {
  /** Current resident set, MiB. */
  rssMiB: number;
  /** Peak resident set over the process's life (VmHWM), MiB. */
  peakRssMiB: number;
}

function fieldKiB(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`/proc status has no ${name}`);
  return Number(match[1]);
}

export function readProcMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssMiB: fieldKiB(status, 'VmRSS') / 1024, peakRssMiB: fieldKiB(status, 'VmHWM') / 1024 };
}

/**
 * Samples VmRSS every `intervalMs` until stopped; reports the largest sample. A peak between two
 * samples is not lost: when the process's high-water mark (VmHWM) rose while sampling, that new
 * mark was set in the sampled span and is the exact peak.
 */
export class RssSampler {
  private maxMiB = 0;
  private samples = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly highWaterAtStartMiB: number;

  constructor(
    private readonly pid: number,
    intervalMs = 50,
  ) {
    this.highWaterAtStartMiB = this.highWaterMiB();
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): { maxRssMiB: number; samples: number } {
    clearInterval(this.timer);
    this.sample();
    const highWater = this.highWaterMiB();
    const maxRssMiB = highWater > this.highWaterAtStartMiB ? Math.max(this.maxMiB, highWater) : this.maxMiB;
    return { maxRssMiB, samples: this.samples };
  }

  private highWaterMiB(): number {
    try {
      return readProcMemory(this.pid).peakRssMiB;
    } catch {
      return 0;
    }
  }

  private sample(): void {
    try {
      this.maxMiB = Math.max(this.maxMiB, readProcMemory(this.pid).rssMiB);
      this.samples += 1;
    } catch {
      // The process may have exited between two samples.
    }
  }
}
