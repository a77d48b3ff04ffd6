import type { StreamChunk } from '@tandem/shared';
import type { Response } from 'express';
import type { StepOutcome } from '../agent/steps';
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
  includeScreenshot: boolean,
  step: () => Promise<StepOutcome>,
  screenshot: () => Promise<string> = async () => '',
): Promise<void> {
  const stream = openSse(res);
  streams.set(res, stream);
  const url = () => session.driver.url();
  stream.send({ type: 'event', data: { delta: { content: 'Step started.', url: url() }, session_id: session.id } });
  let final: StreamChunk;
  try {
    const outcome = await step();
    const shot = includeScreenshot ? await screenshot() : undefined;
    final = {
      type: 'final_event',
      data: {
        delta: { content: outcome.message, url: url(), status: outcome.status },
        ...(shot !== undefined ? { screenshot: shot } : {}),
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
