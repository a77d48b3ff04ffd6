import type { RequestHandler } from 'express';
import { TooManyRequests, Unauthorized } from '../errors';
import type { RateLimiter } from '../limits/limiter';
import type { Store } from '../store/store';
import { locals } from './context';

const HOW =
  'Send your API key in the X_SERVICE_API_KEY header, or as Authorization: Bearer <key> (proxies such as nginx drop headers with underscores by default).';

/** Resolves the API key (X_SERVICE_API_KEY or Authorization: Bearer) to an account; 401 otherwise. */
export function requireApiKey(store: Store): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('x_service_api_key') ?? req.get('x-service-api-key');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
    const key = header?.trim() || bearer;
    if (!key) throw new Unauthorized(`Missing API key. ${HOW}`);
    const record = await store.apiKeys.resolve(key);
    if (!record) {
      throw new Unauthorized(
        'Invalid or revoked API key. Use a key printed at first start or made with POST /v1/console/api-keys (or set TANDEM_BOOTSTRAP_KEY).',
      );
    }
    const ctx = locals(res);
    ctx.apiKey = record;
    ctx.log = ctx.log.child({ accountId: record.accountId });
    next();
  };
}

/** Counts each request against its API key; 429 with Retry-After past TANDEM_RATE_LIMIT_PER_MINUTE. */
export function rateLimit(limiter: RateLimiter, perMinute: number): RequestHandler {
  return async (_req, res, next) => {
    const key = locals(res).apiKey;
    if (!key) return next();
    const verdict = await limiter.take(key.id);
    if (verdict.allowed) return next();
    throw new TooManyRequests(
      verdict.retryAfterMs,
      (seconds) =>
        `This API key made more than ${perMinute} requests in a minute (TANDEM_RATE_LIMIT_PER_MINUTE). Retry after ${seconds} s, or spread the requests out.`,
    );
  };
}
