import type { RequestHandler } from 'express';
import type { Logger } from '../logger';
import { pathForLog } from '../redact';
import { randomBase62 } from '../store/secrets';
import { locals } from './context';

const CLIENT_ID = /^[\w.:-]{1,64}$/;

/**
 * Request id (taken from X-Request-Id when sane), a child logger, the redactor, and one log line per
 * request (a screenshot's capability path is logged as its first characters only).
 */
export function requestContext(logger: Logger, redact: (text: string) => string): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && CLIENT_ID.test(incoming) ? incoming : `req_${randomBase62(64)}`;
    const ctx = locals(res);
    ctx.requestId = requestId;
    ctx.log = logger.child({ reqId: requestId });
    ctx.redact = redact;
    // Every JSON answer passes the redactor: a configured secret never leaves in a body, whichever
    // message (a model endpoint's error echoing its key, a URL with credentials) carried it this far.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const text = JSON.stringify(body);
      const safe = text === undefined ? text : redact(text);
      return safe === text ? json(body) : json(JSON.parse(safe as string));
    };
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const fields = {
        method: req.method,
        path: pathForLog(req.path),
        status: res.statusCode,
        ms: Math.round(ms),
        sessionId: ctx.sessionId,
      };
      if (res.statusCode >= 500) ctx.log.error(fields, 'request failed');
      else ctx.log.info(fields, 'request');
    });
    next();
  };
}
