import type { Clock } from '../src/sessions/clock';

interface Pending {
  at: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that stands still until `advance()` moves it, firing the timers that came due on the way, in order. */
export class ManualClock implements Clock {
  private time = Date.now();
  private readonly pending: Pending[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): unknown {
    const timer: Pending = { at: this.time + ms, fn, cancelled: false };
    this.pending.push(timer);
    return timer;
  }

  cancel(timer: unknown): void {
    if (timer) (timer as Pending).cancelled = true;
  }

  /** Moves time on by `ms`, firing each timer due by then at its own moment (one may set another). */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.pending.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.cancelled = true;
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = until;
  }
}
