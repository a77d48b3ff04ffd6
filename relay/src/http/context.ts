import type { Response } from 'express';
import type { Principal } from '../app/accounts';
import type { Logger } from '../logger';
import type { ApiKeyRecord } from '../store/api-keys';

/** What the middlewares put on `res.locals` for the handlers after them. */
export interface RequestLocals {
  requestId: string;
  log: Logger;
  /** Masks configured secrets in text the response carries (error messages). */
  redact: (text: string) => string;
  apiKey?: ApiKeyRecord;
  /** Who an admin-API request acts as (an API key, or a console sign-in). */
  principal?: Principal;
  sessionId?: string;
  body?: unknown;
  params?: unknown;
  query?: unknown;
}

export const locals = (res: Response): RequestLocals => res.locals as RequestLocals;

/** The authenticated account id; only valid behind the auth middleware. */
export function accountId(res: Response): string {
  const { principal, apiKey } = locals(res);
  const id = principal?.accountId ?? apiKey?.accountId;
  if (!id) throw new Error('accountId() used on a route without auth');
  return id;
}

/** Who an admin-API request acts as; only valid behind the console's auth middleware. */
export function principal(res: Response): Principal {
  const who = locals(res).principal;
  if (!who) throw new Error('principal() used on a route without console auth');
  return who;
}

/** The API key the request came with, if it came with one (usage is counted under it). */
export const keyIdOf = (res: Response): string | undefined => locals(res).apiKey?.id;

/** The body parsed by `validate()`, typed by the caller's schema. */
export const body = <T>(res: Response): T => locals(res).body as T;
export const params = <T>(res: Response): T => locals(res).params as T;
export const query = <T>(res: Response): T => locals(res).query as T;
