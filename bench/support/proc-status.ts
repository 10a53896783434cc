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

/** Samples VmRSS every `intervalMs` until stopped; reports the largest sample. */
export class RssSampler {
  private maxMiB = 0;
  private samples = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 50,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): { maxRssMiB: number; samples: number } {
    clearInterval(this.timer);
    this.sample();
    return { maxRssMiB: this.maxMiB, samples: this.samples };
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
