import type { StreamChunk } from '@tandem/shared';
import type { Response } from 'express';
import { locals } from './context';

/** A Server-Sent Events response: one `data: <json>` line and a blank line per chunk, then `data: [DONE]`. */
export interface SseStream<T = StreamChunk> {
  send(chunk: T): void;
  /** Writes `data: [DONE]` and ends the response; idempotent. */
  end(): void;
  /** True once the client went away; nothing more is written. */
  readonly closed: boolean;
}

export function openSse<T = StreamChunk>(res: Response): SseStream<T> {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  // nginx buffers proxied responses unless told not to, which would hold the events back.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const write = (line: string) => {
    if (!closed && !res.writableEnded) res.write(`data: ${line}\n\n`);
  };
  const redact = locals(res).redact ?? ((text: string) => text);
  return {
    send: (chunk) => write(redact(JSON.stringify(chunk))),
    end() {
      write('[DONE]');
      if (!res.writableEnded) res.end();
    },
    get closed() {
      return closed;
    },
  };
}
