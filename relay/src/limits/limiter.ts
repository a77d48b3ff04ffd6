// Rate limits and failure backoff behind small interfaces: in memory for one relay today, the same
// interfaces over a shared store (Redis) when several relays must agree (DESIGN §9). Async for that
// reason, although the memory versions answer at once.

/** The answer to "may this happen now?". */
export interface Verdict {
  allowed: boolean;
  /** How long until it may, when it may not (0 when allowed). */
  retryAfterMs: number;
}

/** Requests per key over time. */
export interface RateLimiter {
  /** Counts one request against `key`; refused when the key is over its rate. */
  take(key: string): Promise<Verdict>;
}

/** Failed attempts per key (password guesses), with a wait that grows with each failure past a few. */
export interface FailureLimiter {
  /** Whether an attempt may be made now, without counting one. */
  check(key: string): Promise<Verdict>;
  /** Counts a failure; the verdict says how long the key must now wait. */
  fail(key: string): Promise<Verdict & { failures: number }>;
  /** Forgets the key's failures (it succeeded). */
  succeed(key: string): Promise<void>;
}

const ALLOWED: Verdict = { allowed: true, retryAfterMs: 0 };

/** Keys remembered at most: an attacker inventing keys (emails, addresses) cannot grow memory without bound. */
const MAX_KEYS = 100_000;

/** A Map that forgets its least recently touched entries past `MAX_KEYS`. */
class BoundedMap<V> extends Map<string, V> {
  touch(key: string, value: V): void {
    this.delete(key);
    this.set(key, value);
    if (this.size > MAX_KEYS) this.delete(this.keys().next().value as string);
  }
}

export interface TokenBucketOptions {
  /** Requests per minute a key may make on average; as many may come in one burst. */
  perMinute: number;
  now?: () => number;
}

/** A token bucket per key: `perMinute` tokens at most, refilled evenly over the minute. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new BoundedMap<{ tokens: number; at: number }>();
  private readonly now: () => number;

  constructor(private readonly options: TokenBucketOptions) {
    this.now = options.now ?? Date.now;
  }

  async take(key: string): Promise<Verdict> {
    const now = this.now();
    const { perMinute } = this.options;
    const perMs = perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: perMinute, at: now };
    const tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * perMs);
    if (tokens < 1) {
      this.buckets.touch(key, { tokens, at: now });
      return { allowed: false, retryAfterMs: Math.ceil((1 - tokens) / perMs) };
    }
    this.buckets.touch(key, { tokens: tokens - 1, at: now });
    return ALLOWED;
  }
}

export interface BackoffOptions {
  /** Failures allowed before any wait. */
  free: number;
  /** The first wait; each failure after it doubles it. */
  baseMs: number;
  maxMs: number;
  /** Failures are forgotten after this long without one. */
  forgetMs: number;
  now?: () => number;
}

/** Exponential backoff per key: after `free` failures, waits of baseMs, 2×, 4× … up to maxMs. */
export class MemoryFailureLimiter implements FailureLimiter {
  private readonly entries = new BoundedMap<{ failures: number; last: number; until: number }>();
  private readonly now: () => number;

  constructor(private readonly options: BackoffOptions) {
    this.now = options.now ?? Date.now;
  }

  async check(key: string): Promise<Verdict> {
    const entry = this.current(key);
    const wait = entry ? entry.until - this.now() : 0;
    return wait > 0 ? { allowed: false, retryAfterMs: wait } : ALLOWED;
  }

  async fail(key: string): Promise<Verdict & { failures: number }> {
    const now = this.now();
    const failures = (this.current(key)?.failures ?? 0) + 1;
    const { free, baseMs, maxMs } = this.options;
    const wait = failures > free ? Math.min(maxMs, baseMs * 2 ** Math.min(failures - free - 1, 30)) : 0;
    this.entries.touch(key, { failures, last: now, until: now + wait });
    return { allowed: wait === 0, retryAfterMs: wait, failures };
  }

  async succeed(key: string): Promise<void> {
    this.entries.delete(key);
  }

  /** The key's entry, unless its failures are old enough to forget. */
  private current(key: string) {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.last > this.options.forgetMs && this.now() >= entry.until) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
