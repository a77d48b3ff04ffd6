import type { Response } from 'express';
import type { Logger } from '../logger';
import type { ApiKeyRecord } from '../store/api-keys';

/** What the middlewares put on `res.locals` for the handlers after them. */
export interface RequestLocals {
  requestId: string;
  log: Logger;
  /** Masks configured secrets in text the response carries (error messages). */
  redact: (text: string) => string;
  apiKey?: ApiKeyRecord;
  sessionId?: string;
  body?: unknown;
  params?: unknown;
}

export const locals = (res: Response): RequestLocals => res.locals as RequestLocals;

/** The authenticated account id; only valid behind the auth middleware. */
export function accountId(res: Response): string {
  const key = locals(res).apiKey;
  if (!key) throw new Error('accountId() used on a route without auth');
  return key.accountId;
}

/** The body parsed by `validate()`, typed by the caller's schema. */
export const body = <T>(res: Response): T => locals(res).body as T;
export const params = <T>(res: Response): T => locals(res).params as T;
