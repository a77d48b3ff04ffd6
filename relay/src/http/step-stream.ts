import type { StreamChunk } from '@tandem/shared';
import type { Response } from 'express';
import type { StepOutcome } from '../agent/steps';
import { OperationCancelled } from '../sessions/cancellation';
import { NO_SCREENSHOT, type OptionalScreenshot } from '../sessions/lifecycle';
import type { Session } from '../sessions/session';
import { locals } from './context';
import { openSse, type SseStream } from './sse';

const streams = new WeakMap<Response, SseStream>();

/** An `emit` for the step loop that sends `event` chunks on the response's stream. */
export function emitTo(res: Response, session: Session): (content: string) => void {
  return (content) => {
    streams
      .get(res)
      ?.send({ type: 'event', data: { delta: { content, url: session.driver.url() }, session_id: session.id } });
  };
}

/**
 * Runs one step as a stream: the first chunk as soon as the step starts, `event` chunks while it runs,
 * one `final_event`, then `data: [DONE]`. A failure after the stream began becomes the final event. A
 * client that leaves mid-stream cancels the step (its signal): the action running finishes, nothing
 * further runs, and there is no one left to tell.
 */
export async function streamStep(
  res: Response,
  session: Session,
  step: () => Promise<StepOutcome>,
  screenshot: () => Promise<OptionalScreenshot> = async () => NO_SCREENSHOT,
): Promise<void> {
  const stream = openSse(res);
  streams.set(res, stream);
  const url = () => session.driver.url();
  stream.send({ type: 'event', data: { delta: { content: 'Step started.', url: url() }, session_id: session.id } });
  let final: StreamChunk;
  try {
    const outcome = await step();
    const shot = await screenshot();
    final = {
      type: 'final_event',
      data: {
        delta: { content: `${outcome.message}${shot.note}`, url: url(), status: outcome.status },
        ...(shot !== NO_SCREENSHOT ? { screenshot: shot.screenshot } : {}),
        session_id: session.id,
      },
    };
  } catch (error) {
    // A cancelled step (client gone, session closed) is no failure of the relay's; a gone client hears nothing.
    const log = locals(res).log;
    if (error instanceof OperationCancelled)
      log.info({ sessionId: session.id, reason: error.reason }, 'streamed step cancelled');
    else log.error({ err: error, sessionId: session.id }, 'streamed step failed');
    const message = error instanceof Error ? error.message : String(error);
    final = {
      type: 'final_event',
      data: { delta: { content: `Error: ${message}`, url: url(), status: 'DONE' }, session_id: session.id },
    };
  }
  stream.send(final);
  stream.end();
}
