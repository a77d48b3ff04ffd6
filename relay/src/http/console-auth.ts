import { type Endpoint, endpoints } from '@tandem/shared';
import type { Request, RequestHandler, Response } from 'express';
import type { Principal } from '../app/accounts';
import { Forbidden, Unauthorized } from '../errors';
import type { Services } from '../services';
import { sameToken } from '../store/console-sessions';
import { apiKeyOf, UNKNOWN_KEY } from './auth';
import { locals } from './context';

/** The console sign-in cookie. */
export const CONSOLE_COOKIE = 'tandem_console';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a console sign-in whose password must change may still do. */
const WHILE_PASSWORD_MUST_CHANGE = new Set(
  [endpoints.me, endpoints.changePassword, endpoints.signOut].map((e) => `${e.method.toUpperCase()} ${e.path}`),
);

/** The value of one cookie of the request, without a cookie library. */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** Whether the console cookie must be Secure: the relay is reached over https (directly or behind a proxy). */
function secure(services: Services, req: Request): boolean {
  return req.secure || (services.config.TANDEM_PUBLIC_URL ?? '').startsWith('https:');
}

/** Sets the console cookie: HttpOnly (no script reads it), SameSite=Lax (no cross-site change carries it). */
export function setConsoleCookie(services: Services, req: Request, res: Response, token: string, maxAgeMs: number) {
  res.cookie(CONSOLE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(services, req),
    path: '/',
    maxAge: maxAgeMs,
  });
}

export function clearConsoleCookie(services: Services, req: Request, res: Response) {
  res.clearCookie(CONSOLE_COOKIE, { httpOnly: true, sameSite: 'lax', secure: secure(services, req), path: '/' });
}

/**
 * The admin API's authentication: an API key (scripts), or the console's cookie (people). With the
 * cookie, every change must carry the sign-in's CSRF token and come from the relay's own pages, and a
 * password made for the account must be changed before anything else.
 */
export function consoleAuth(services: Services): RequestHandler {
  const { store } = services;
  return async (req, res, next) => {
    const ctx = locals(res);
    const key = apiKeyOf(req);
    let who: Principal;
    if (key) {
      const record = await store.apiKeys.resolve(key);
      if (!record) throw new Unauthorized(UNKNOWN_KEY);
      const account = await store.accounts.get(record.accountId);
      if (!account) throw new Unauthorized(UNKNOWN_KEY);
      ctx.apiKey = record;
      who = {
        accountId: account.id,
        role: account.role,
        mustChangePassword: account.mustChangePassword,
        via: 'api_key',
        keyId: record.id,
      };
    } else {
      const token = cookieOf(req, CONSOLE_COOKIE);
      const session = token ? await store.consoleSessions.resolve(token) : undefined;
      const account = session && (await store.accounts.get(session.accountId));
      if (!session || !account) {
        if (token) clearConsoleCookie(services, req, res);
        throw new Unauthorized(
          'Sign in to the console (/console) or send an API key in the X_SERVICE_API_KEY header (or as Authorization: Bearer <key>).',
        );
      }
      who = {
        accountId: account.id,
        role: account.role,
        mustChangePassword: account.mustChangePassword,
        via: 'cookie',
        console: session,
      };
      if (!SAFE_METHODS.has(req.method)) checkCsrf(req, session.csrf);
      const route = `${req.method} ${`${req.baseUrl}${req.path}`.replace(/\/+$/, '')}`;
      if (who.mustChangePassword && !WHILE_PASSWORD_MUST_CHANGE.has(route)) {
        throw new Forbidden(
          "The password of this account was made for it: change it first (POST /v1/console/me/password, or the console's password page).",
        );
      }
    }
    ctx.principal = who;
    ctx.log = ctx.log.child({ accountId: who.accountId });
    next();
  };
}

/**
 * Refuses a request a page of another site sent (its Origin names another host). Browsers send Origin
 * with every cross-site POST; scripts (curl) send none and pass.
 */
export function refuseOtherSites(req: Request): void {
  const origin = req.get('origin');
  if (!origin || origin === 'null') return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== req.get('host')) {
    throw new Forbidden(`A request from another site (${origin}) is refused: use the console's own pages.`);
  }
}

/** A change made with the console cookie: the CSRF token, and no page of another site behind it. */
function checkCsrf(req: Request, expected: string): void {
  refuseOtherSites(req);
  const sent = req.get(CSRF_HEADER) ?? '';
  if (!sent || !sameToken(sent, expected)) {
    throw new Forbidden(
      'This change needs the X-CSRF-Token header of your console sign-in (GET /v1/console/me answers it): reload the console page and try again.',
    );
  }
}

/** Admin endpoints answer 403 to members. */
export function authorize(endpoint: Endpoint): RequestHandler {
  return (_req, res, next) => {
    if (endpoint.auth === 'admin' && locals(res).principal?.role !== 'admin') {
      throw new Forbidden('Only an admin account may do this. Ask an admin of this relay.');
    }
    next();
  };
}
