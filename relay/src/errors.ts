import type { ValidationIssue } from '@tandem/shared';
import { clip } from './quote';

/**
 * What went wrong, in the relay's own words. The HTTP layer (src/http/error-status.ts) alone turns a
 * code into a status and headers; nothing below it knows about HTTP.
 */
export const ERROR_CODES = {
  /** The request asks for something that cannot be done as asked (a bad URL, an empty cmd with no task). */
  bad_request: 'request',
  /** The request's fields break the schema: answered with FastAPI-shaped details. */
  invalid_input: 'request',
  unknown_agent: 'request',
  unknown_secret: 'request',
  /** No or a bad credential. */
  unauthenticated: 'request',
  /** The credential is good but may not do this (a member asking for an admin's work, a missing CSRF token). */
  forbidden: 'request',
  /** The change clashes with what exists (an email already taken). */
  conflict: 'request',
  /** The account's monthly step quota is used up. */
  quota_exceeded: 'request',
  not_found: 'request',
  /** The session is unknown, closed, expired or another account's. */
  session_gone: 'request',
  session_busy: 'request',
  rate_limited: 'request',
  /** A page could not be opened (DNS, refused connection, timeout, certificate). */
  navigation_failed: 'request',
  /** The address policy refused a page. */
  navigation_refused: 'request',
  /** A page's scripts never yielded, so its tab was closed. */
  page_unresponsive: 'request',
  /** The extension may not act on that page (a browser or extension page). */
  restricted_page: 'request',
  /** API Enabled is off in the extension. */
  api_disabled: 'request',
  /** The element the extension was to act on is no longer on the page. */
  stale_element: 'request',
  /** The local session's tab was closed. */
  tab_closed: 'request',
  at_capacity: 'relay',
  /** What the request needs is held by another relay of the cluster (and passing it on failed). */
  elsewhere: 'relay',
  browser_gone: 'relay',
  browser_unavailable: 'relay',
  /** The extension did not answer in time or disconnected mid-command. */
  extension_unavailable: 'relay',
  model_unavailable: 'relay',
  store_unavailable: 'relay',
  screenshot_not_stored: 'relay',
  internal: 'relay',
} as const satisfies Record<string, 'request' | 'relay'>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** An error the relay raises on purpose; `message` says what went wrong and what to do about it. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** When a retry may succeed, in seconds (capacity, rate limits, a dependency that is restarting). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /**
   * Whether the request or action was at fault (the caller, or the agent, can change it) rather than
   * the relay or what it depends on (a browser, the model, the database, the disk).
   */
  get blamesRequest(): boolean {
    return ERROR_CODES[this.code] === 'request';
  }
}

export class BadRequest extends DomainError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

export class Unauthorized extends DomainError {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class Conflict extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class NotFound extends DomainError {
  constructor(message: string) {
    super('not_found', message);
  }
}

/** The session is unknown, closed, expired or another account's. */
export class SessionGone extends DomainError {
  constructor(
    readonly sessionId: string,
    readonly reason:
      | 'unknown'
      | 'closed'
      | 'expired'
      | 'closed_in_browser'
      | 'stopped_in_browser'
      | 'browser_crashed'
      | 'extension_disconnected'
      | 'device_revoked'
      | 'relay_stopped'
      | 'node_stopped',
  ) {
    const why = {
      unknown:
        'is not known to this relay: the id is wrong, it is not one of your sessions, or it ended more than TANDEM_HISTORY_DAYS days ago',
      closed: 'was closed',
      expired: 'expired after being idle too long',
      closed_in_browser: 'was closed in the browser (its tab was closed)',
      stopped_in_browser: "was stopped in the browser (Stop in the Tandem extension's popup)",
      browser_crashed: 'ended because its browser stopped unexpectedly',
      extension_disconnected:
        'ended because the browser extension stayed disconnected longer than the grace period (check that the browser is running and API Enabled is on)',
      device_revoked:
        "ended because its browser extension's device token was revoked (sign the extension in again from its popup)",
      // A live session is a browser the relay process holds; a parked one is in the store and comes back.
      relay_stopped:
        'ended when its relay stopped or restarted (a live session is held in the relay process; parked ones come back)',
      node_stopped: 'ended because the relay node that held it stopped',
    }[reason];
    super(
      'session_gone',
      `Session ${clip(sessionId)} ${why}. Create a new session (POST /v1/web/session) and use its session_id.`,
    );
  }
}

export class SessionBusy extends DomainError {
  constructor(sessionId: string, waitedMs: number) {
    super(
      'session_busy',
      `Session ${sessionId} is still busy with an earlier operation after waiting ${Math.round(waitedMs / 1000)} s. Wait for it to finish, then try again.`,
    );
  }
}

/**
 * What a request needs (a live session, an extension's socket) is held by another running relay: the HTTP
 * layer passes the request on to `node`. Seen by a client only when that failed.
 */
export class Elsewhere extends DomainError {
  constructor(
    readonly node: { id: string; url: string },
    what: string,
    /** The session it is about, if it is one (asked again if its relay turns out to have stopped). */
    readonly session?: { accountId: string; id: string },
  ) {
    super(
      'elsewhere',
      `${what} is held by another relay (${node.id}), and passing the request on to it failed. Retry in a moment.`,
      1,
    );
  }
}

export class AtCapacity extends DomainError {
  constructor(max: number, retryAfterSeconds: number) {
    super(
      'at_capacity',
      `The relay is at its limit of ${max} live sessions. Close sessions you no longer need (DELETE /v1/web/session/{id}) or raise TANDEM_MAX_SESSIONS, then retry.`,
      retryAfterSeconds,
    );
  }
}

/** The account's monthly step quota is used up: what it is, what was used, and when it resets. */
export class QuotaExceeded extends DomainError {
  constructor(quota: number, used: number, resetsAt: Date) {
    super(
      'quota_exceeded',
      `This account has used ${used} of its ${quota} agent steps for this month (its monthly step quota), so no new work starts until the quota resets on ${resetsAt.toISOString().slice(0, 10)} at 00:00 UTC. An admin can raise it on the console's Accounts page (or PATCH /v1/console/accounts/{id}).`,
    );
  }
}

/** Too many requests or failed attempts; `retryAfterSeconds` says when to try again. */
export class TooManyRequests extends DomainError {
  constructor(retryAfterMs: number, message: (seconds: number) => string) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('rate_limited', message(seconds), seconds);
  }
}

/** Input that breaks the schema, with FastAPI-shaped details. */
export class ValidationFailed extends DomainError {
  constructor(readonly issues: ValidationIssue[]) {
    super('invalid_input', 'Validation failed');
  }
}
