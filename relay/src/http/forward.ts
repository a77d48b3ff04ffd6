import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ErrorRequestHandler, Request, Response } from 'express';
import { Elsewhere } from '../errors';
import type { Services } from '../services';
import { locals } from './context';

/** Set on a request one relay passes on to another: it is never passed on again (no loops). */
export const FORWARDED_HEADER = 'x-tandem-forwarded-by';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and what the new connection sets for itself. */
const NOT_PASSED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

function passable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_PASSED.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/** Connection failures that mean nothing listens there any more: the relay stopped. */
const STOPPED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * Passes a request whose session (or extension) another relay holds on to that relay, and its answer back
 * as it comes: a JSON body, or a stream of Server-Sent Events chunk by chunk. The client's API key or
 * console cookie goes with it, and that relay checks it again. A client that goes away ends the passed-on
 * request too, so the work stops there as it would here.
 */
export function forwardToHolder(services: Services): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (!(error instanceof Elsewhere) || res.headersSent || req.get(FORWARDED_HEADER)) return next(error);
    void forward(services, error, req, res).catch(next);
  };
}

async function forward(services: Services, error: Elsewhere, req: Request, res: Response): Promise<void> {
  const target = new URL(req.originalUrl, `${error.node.url}/`);
  const body = hasBody(req) ? Buffer.from(JSON.stringify(req.body)) : undefined;
  const headers = {
    ...passable(req.headers),
    [FORWARDED_HEADER]: services.cluster.self.id,
    'x-request-id': locals(res).requestId,
    ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
  };
  const log = locals(res).log.child({ forwardedTo: error.node.id });
  await new Promise<void>((done, fail) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send(target, { method: req.method, headers }, (answer) => {
      res.status(answer.statusCode ?? 502);
      for (const [name, value] of Object.entries(passable(answer.headers))) res.setHeader(name, value);
      res.flushHeaders();
      answer.pipe(res);
      answer.on('end', done);
      answer.on('error', fail);
    });
    // The client went away: so does the passed-on request, and with it the work on the other relay.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.on('error', (failure: NodeJS.ErrnoException) => {
      if (res.headersSent) {
        res.end();
        return done();
      }
      if (failure.code && STOPPED_CODES.has(failure.code)) {
        // Nothing listens where the holder was: it stopped. The others learn it now, and the request is
        // answered as if it had come after: its session ended with that relay.
        log.warn({ err: failure }, 'the relay holding the request stopped');
        void afterStop(services, error).then(fail, fail);
        return;
      }
      fail(error);
    });
    upstream.end(body);
  });
}

/**
 * What to answer once the holder is known to have stopped: for a session, why it is gone (asked again,
 * it is now marked ended with its relay); else the Elsewhere error itself (503, retry: an extension
 * reconnects to another relay).
 */
async function afterStop(services: Services, error: Elsewhere): Promise<unknown> {
  await services.cluster.stopped(error.node.id);
  if (!error.session) return error;
  try {
    await services.app.sessions.find(error.session.accountId, error.session.id);
  } catch (gone) {
    return gone;
  }
  return error;
}

function hasBody(req: Request): boolean {
  return req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE' && req.body !== undefined;
}
