import type { Response } from 'express';
import { OperationCancelled } from '../sessions/cancellation';

/**
 * A signal that aborts when the client goes away before its response was complete (a closed tab, a
 * cancelled fetch, Ctrl-C on curl): the work it asked for stops at its next action boundary.
 */
export function clientSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!res.writableFinished) controller.abort(new OperationCancelled('client_gone'));
  };
  if (res.closed) gone();
  else res.once('close', gone);
  return controller.signal;
}
