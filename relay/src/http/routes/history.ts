import type { SessionIdParams, TimelineChunk } from '@tandem/shared';
import { Router } from 'express';
import type { Services } from '../../services';
import { accountId, locals, params } from '../context';
import { route } from '../route';
import { openSse, type SseStream } from '../sse';

const HEARTBEAT_MS = 15_000;

/** Live and recent sessions, closing one, and a session's step timeline (the console's session pages read them). */
export function historyRoutes(services: Services): Router {
  const router = Router();
  route(router, services.api.consoleSessions, async (_req, res) => {
    res.json(await services.app.history.sessions(accountId(res)));
  });
  route(router, services.api.closeConsoleSession, async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    res.json(await services.app.history.close(accountId(res), session_id));
  });
  route(router, services.api.sessionSteps, async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    res.json(await services.app.history.steps(accountId(res), session_id));
  });
  route(router, services.api.sessionStepsLive, async (_req, res) => {
    const { session_id } = params<SessionIdParams>(res);
    locals(res).sessionId = session_id;
    // The stream opens only once the session is known to have a timeline: else a plain 404.
    const pending: TimelineChunk[] = [];
    let stream: SseStream<TimelineChunk> | undefined;
    const send = (chunk: TimelineChunk) => {
      if (!stream) return void pending.push(chunk);
      stream.send(chunk);
      if (chunk.type === 'end') stream.end();
    };
    const unsubscribe = await services.app.history.watch(accountId(res), session_id, send);
    stream = openSse<TimelineChunk>(res);
    for (const chunk of pending.splice(0)) send(chunk);
    if (res.writableEnded) return;
    // A comment line now and then keeps proxies from closing a quiet stream.
    const heartbeat = setInterval(() => {
      if (!res.writableEnded) res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    res.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  });
  return router;
}
