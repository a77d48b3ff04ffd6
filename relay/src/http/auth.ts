import type { Request, RequestHandler } from 'express';
import { TooManyRequests, Unauthorized } from '../errors';
import type { RateLimiter } from '../limits/limiter';
import type { Store } from '../store/store';
import { locals } from './context';

const HOW =
  'Send your API key in the X_SERVICE_API_KEY header, or as Authorization: Bearer <key> (proxies such as nginx drop headers with underscores by default).';

export const UNKNOWN_KEY =
  'Invalid or revoked API key. Use a key printed at first start or made in the console (/console, or POST /v1/console/api-keys), or set TANDEM_BOOTSTRAP_KEY.';

/** The API key of a request: the X_SERVICE_API_KEY header, or Authorization: Bearer. */
export function apiKeyOf(req: Request): string | undefined {
  const header = req.get('x_service_api_key') ?? req.get('x-service-api-key');
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
  return header?.trim() || bearer;
}

/** Resolves the API key (X_SERVICE_API_KEY or Authorization: Bearer) to an account; 401 otherwise. */
export function requireApiKey(store: Store): RequestHandler {
  return async (req, res, next) => {
    const key = apiKeyOf(req);
    if (!key) throw new Unauthorized(`Missing API key. ${HOW}`);
    const record = await store.apiKeys.resolve(key);
    if (!record) throw new Unauthorized(UNKNOWN_KEY);
    const ctx = locals(res);
    ctx.apiKey = record;
    ctx.log = ctx.log.child({ accountId: record.accountId });
    next();
  };
}

/**
 * Counts each request against its API key (or, signed in to the console, its account); 429 with
 * Retry-After past TANDEM_RATE_LIMIT_PER_MINUTE.
 */
export function rateLimit(limiter: RateLimiter, perMinute: number): RequestHandler {
  return async (_req, res, next) => {
    const { apiKey, principal } = locals(res);
    const bucket = apiKey?.id ?? (principal ? `console:${principal.accountId}` : undefined);
    if (!bucket) return next();
    const verdict = await limiter.take(bucket);
    if (verdict.allowed) return next();
    throw new TooManyRequests(
      verdict.retryAfterMs,
      (seconds) =>
        `This ${apiKey ? 'API key' : 'console sign-in'} made more than ${perMinute} requests in a minute (TANDEM_RATE_LIMIT_PER_MINUTE). Retry after ${seconds} s, or spread the requests out.`,
    );
  };
}
