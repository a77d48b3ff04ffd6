import type { ValidationIssue } from '@tandem/shared';
import { clip } from './quote';

export const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** An error that becomes an HTTP response; `message` says what went wrong and what to do. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class Unauthorized extends HttpError {
  constructor(message: string) {
    super(401, message, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

/** The session is unknown, closed, expired or another account's. */
export class SessionGone extends NotFound {
  constructor(
    readonly sessionId: string,
    readonly reason:
      | 'unknown'
      | 'closed'
      | 'expired'
      | 'closed_in_browser'
      | 'browser_crashed'
      | 'extension_disconnected'
      | 'device_revoked',
  ) {
    const why = {
      // Sessions live in memory: after a restart every earlier id is unknown, and the message says why.
      unknown:
        "is not known to this relay. Sessions live in the relay's memory, so they end when it restarts; the relay may have restarted since this one was created, or the id is wrong",
      closed: 'was closed',
      expired: 'expired after being idle too long',
      closed_in_browser: 'was closed in the browser (its tab was closed)',
      browser_crashed: 'ended because its browser stopped unexpectedly',
      extension_disconnected:
        'ended because the browser extension stayed disconnected longer than the grace period (check that the browser is running and API Enabled is on)',
      device_revoked:
        "ended because its browser extension's device token was revoked (sign the extension in again from its popup)",
    }[reason];
    super(`Session ${clip(sessionId)} ${why}. Create a new session (POST /v1/web/session) and use its session_id.`);
  }
}

export class SessionBusy extends HttpError {
  constructor(sessionId: string, waitedMs: number) {
    super(
      409,
      `Session ${sessionId} is still busy with an earlier operation after waiting ${Math.round(waitedMs / 1000)} s. Wait for it to finish, then try again.`,
    );
  }
}

export class AtCapacity extends HttpError {
  constructor(max: number, retryAfterSeconds: number) {
    super(
      503,
      `The relay is at its limit of ${max} live sessions. Close sessions you no longer need (DELETE /v1/web/session/{id}) or raise TANDEM_MAX_SESSIONS, then retry.`,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** Too many requests or failed attempts; `Retry-After` says when to try again. */
export class TooManyRequests extends HttpError {
  constructor(retryAfterMs: number, message: (seconds: number) => string) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(429, message(seconds), { 'Retry-After': String(seconds) });
  }
}

/** A 422 carrying FastAPI-shaped details. */
export class ValidationFailed extends HttpError {
  constructor(readonly issues: ValidationIssue[]) {
    super(422, 'Validation failed');
  }
}
