/** Why an operation stopped before it finished. */
export type CancelReason = 'client_gone' | 'session_ended' | 'time_budget';

const WHY: Record<CancelReason, string> = {
  client_gone: 'the client disconnected',
  session_ended: 'the session ended',
  time_budget: 'the time budget ran out',
};

/**
 * The abort reason of an operation's signal: the operation stops at its next action boundary and the
 * model request in flight is aborted. Nothing is retried or replayed.
 */
export class OperationCancelled extends Error {
  constructor(
    readonly reason: CancelReason,
    message = `Stopped: ${WHY[reason]}.`,
  ) {
    super(message);
    this.name = 'OperationCancelled';
  }

  /** What stopped it, in a few words ("the client disconnected"). */
  get why(): string {
    return WHY[this.reason];
  }
}

/** The cancellation a signal carries, if it was aborted with one. */
export function cancellationOf(signal: AbortSignal | undefined): OperationCancelled | undefined {
  return signal?.aborted && signal.reason instanceof OperationCancelled ? signal.reason : undefined;
}

/** Throws the signal's cancellation at an action boundary; any other abort reason becomes one too. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  throw cancellationOf(signal) ?? new OperationCancelled('client_gone');
}

/**
 * `signal`, which also aborts with a `time_budget` cancellation (saying `message`) after `ms`; `clear()`
 * when the work is done.
 */
export function deadline(signal: AbortSignal, ms: number, message: string): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new OperationCancelled('time_budget', message)), ms);
  timer.unref();
  return { signal: AbortSignal.any([signal, controller.signal]), clear: () => clearTimeout(timer) };
}
