/** The run's FIFO of steering texts (docs/spec/runtime.md §11.4). */
import { newId } from './ids';

export interface SteeringEntry {
  steerId: string;
  text: string;
}

export class SteeringQueue {
  private entries: SteeringEntry[] = [];

  enqueue(text: string): string {
    const steerId = newId('steer_');
    this.entries.push({ steerId, text });
    return steerId;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Removes and returns every queued entry in order. */
  drain(): SteeringEntry[] {
    const drained = this.entries;
    this.entries = [];
    return drained;
  }
}
