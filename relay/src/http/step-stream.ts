import type { StreamChunk } from '@tandem/shared';
import type { Response } from 'express';
import { type AgentSession, NO_SCREENSHOT, type StepReporter } from '../app/index';
import { OperationCancelled } from '../sessions/cancellation';
import { locals } from './context';
import { openSse, type SseStream } from './sse';

/**
 * A step as a stream: the first chunk as soon as the step starts, `event` chunks while it runs, one
 * `final_event`, then `data: [DONE]`. A failure after the stream began becomes the final event. A
 * client that leaves mid-stream cancels the step (its signal): the action running finishes, nothing
 * further runs, and there is no one left to tell.
 */
export function streamReporter(res: Response): StepReporter<void> {
  let stream: SseStream | undefined;
  let session: AgentSession | undefined;
  const event = (content: string) => {
    if (session)
      stream?.send({ type: 'event', data: { delta: { content, url: session.driver.url() }, session_id: session.id } });
  };
  const final = (chunk: StreamChunk) => {
    stream?.send(chunk);
    stream?.end();
  };
  return {
    started(started) {
      session = started;
      stream = openSse(res);
      event('Step started.');
    },
    emit: event,
    finished({ session, outcome, shot }) {
      final({
        type: 'final_event',
        data: {
          delta: { content: `${outcome.message}${shot.note}`, url: session.driver.url(), status: outcome.status },
          ...(shot !== NO_SCREENSHOT ? { screenshot: shot.screenshot } : {}),
          session_id: session.id,
        },
      });
    },
    failed(error, session) {
      // A cancelled step (client gone, session closed) is no failure of the relay's; a gone client hears nothing.
      const log = locals(res).log;
      if (error instanceof OperationCancelled)
        log.info({ sessionId: session.id, reason: error.reason }, 'streamed step cancelled');
      else log.error({ err: error, sessionId: session.id }, 'streamed step failed');
      const message = error instanceof Error ? error.message : String(error);
      final({
        type: 'final_event',
        data: {
          delta: { content: `Error: ${message}`, url: session.driver.url(), status: 'DONE' },
          session_id: session.id,
        },
      });
    },
  };
}
