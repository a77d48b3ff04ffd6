import type { Redis } from 'ioredis';
import type { BackoffOptions, FailureLimiter, RateLimiter, TokenBucketOptions, Verdict } from './limiter';

// The same limits as limiter.ts, kept in Redis so every relay of a cluster counts against one budget.
// Each is one Lua script: read, decide and write happen together, whichever relay asks. Times come from
// Redis's own clock (TIME), so relays whose clocks differ still agree.

/** A token bucket: KEYS[1] the bucket, ARGV[1] tokens per minute. Answers {allowed, retry after ms}. */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per_minute = tonumber(ARGV[1])
local per_ms = per_minute / 60000
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or per_minute
local at = tonumber(bucket[2]) or now
tokens = math.min(per_minute, tokens + (now - at) * per_ms)
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) / per_ms)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 120000)
return {allowed, wait}`;

/**
 * One more failure: KEYS[1] the key, ARGV free, base ms, max ms, forget ms. Answers {failures, wait ms}.
 * Failures are forgotten after `forget` quiet ms (the key's time to live).
 */
const FAIL = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local free, base, max, forget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local wait = 0
if failures > free then wait = math.min(max, base * 2 ^ math.min(failures - free - 1, 30)) end
redis.call('HSET', KEYS[1], 'until', tostring(now + wait))
redis.call('PEXPIRE', KEYS[1], forget + wait)
return {failures, wait}`;

/** How long KEYS[1] must still wait, in ms (0: it may try). */
const CHECK = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = tonumber(redis.call('HGET', KEYS[1], 'until')) or 0
return math.max(0, until_ms - now)`;

const verdict = (wait: number): Verdict => ({ allowed: wait <= 0, retryAfterMs: Math.max(0, wait) });

/** Requests per key, one budget across relays (TANDEM_RATE_LIMIT_PER_MINUTE). */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly options: Pick<TokenBucketOptions, 'perMinute'>,
    private readonly prefix = 'tandem:rate:',
  ) {}

  async take(key: string): Promise<Verdict> {
    const [allowed, wait] = (await this.redis.eval(TAKE, 1, this.prefix + key, this.options.perMinute)) as [
      number,
      number,
    ];
    return allowed === 1 ? verdict(0) : verdict(wait);
  }
}

/** Failed attempts per key (password guesses), counted across relays, with the same growing waits. */
export class RedisFailureLimiter implements FailureLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly options: Omit<BackoffOptions, 'now'>,
    private readonly prefix: string,
  ) {}

  async check(key: string): Promise<Verdict> {
    return verdict(Number(await this.redis.eval(CHECK, 1, this.prefix + key)));
  }

  async fail(key: string): Promise<Verdict & { failures: number }> {
    const { free, baseMs, maxMs, forgetMs } = this.options;
    const [failures, wait] = (await this.redis.eval(FAIL, 1, this.prefix + key, free, baseMs, maxMs, forgetMs)) as [
      number,
      number,
    ];
    return { ...verdict(wait), failures };
  }

  async succeed(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
