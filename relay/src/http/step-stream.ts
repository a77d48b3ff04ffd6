import type { StreamChunk } from '@tandem/shared';
import type { Response } from 'express';
import type { StepOutcome } from '../agent/steps';
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
 * one `final_event`, then `data: [DONE]`. A client that leaves mid-stream does not stop the step, so the
 * session is never left half-acted; a failure after the stream began becomes the final event.
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
    locals(res).log.error({ err: error, sessionId: session.id }, 'streamed step failed');
    const message = error instanceof Error ? error.message : String(error);
    final = {
      type: 'final_event',
      data: { delta: { content: `Error: ${message}`, url: url(), status: 'DONE' }, session_id: session.id },
    };
  }
  stream.send(final);
  stream.end();
}
