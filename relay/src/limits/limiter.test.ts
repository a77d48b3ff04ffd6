import { describe, expect, it } from 'vitest';
import { MemoryFailureLimiter, MemoryRateLimiter } from './limiter';
import { SignInGuard } from './sign-in-guard';

/** A clock the test moves by hand. */
const clock = () => {
  const c = { ms: 1_000_000, now: () => c.ms };
  return c;
};

describe('MemoryRateLimiter', () => {
  it('lets a burst of perMinute requests through, then one more per refilled share of the minute', async () => {
    const time = clock();
    const limiter = new MemoryRateLimiter({ perMinute: 6, now: time.now });
    for (let i = 0; i < 6; i++) expect((await limiter.take('k')).allowed).toBe(true);
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterMs: 10_000 });
    time.ms += 4_000;
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterMs: 6_000 });
    time.ms += 6_000;
    expect((await limiter.take('k')).allowed).toBe(true);
    expect((await limiter.take('k')).allowed).toBe(false);
    // Keys are counted apart.
    expect((await limiter.take('other')).allowed).toBe(true);
    // A full minute of quiet refills the bucket, never past perMinute.
    time.ms += 10 * 60_000;
    for (let i = 0; i < 6; i++) expect((await limiter.take('k')).allowed).toBe(true);
    expect((await limiter.take('k')).allowed).toBe(false);
  });
});

describe('MemoryFailureLimiter', () => {
  const options = { free: 2, baseMs: 1_000, maxMs: 8_000, forgetMs: 60_000 };

  it('allows a few failures, then doubles the wait with each one up to the maximum', async () => {
    const time = clock();
    const limiter = new MemoryFailureLimiter({ ...options, now: time.now });
    expect(await limiter.fail('a')).toEqual({ allowed: true, retryAfterMs: 0, failures: 1 });
    expect(await limiter.fail('a')).toEqual({ allowed: true, retryAfterMs: 0, failures: 2 });
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const verdict = await limiter.fail('a');
      waits.push(verdict.retryAfterMs);
      expect(await limiter.check('a')).toEqual({ allowed: false, retryAfterMs: verdict.retryAfterMs });
      time.ms += verdict.retryAfterMs;
      expect((await limiter.check('a')).allowed).toBe(true);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect((await limiter.check('b')).allowed).toBe(true);
  });

  it('forgets failures after a quiet period, or at once after a success', async () => {
    const time = clock();
    const limiter = new MemoryFailureLimiter({ ...options, now: time.now });
    await limiter.fail('a');
    await limiter.fail('a');
    time.ms += 60_001;
    expect((await limiter.fail('a')).failures).toBe(1);
    await limiter.fail('a');
    await limiter.succeed('a');
    expect((await limiter.fail('a')).failures).toBe(1);
  });
});

describe('SignInGuard', () => {
  it('blocks an account after five failures whatever the address, and an address after twenty whatever the account', async () => {
    const time = clock();
    const guard = SignInGuard.inMemory(time.now);
    for (let i = 0; i < 6; i++) await guard.failed({ account: 'Ada@Example.com', address: `10.0.0.${i}` });
    // Case and spaces do not make another account.
    expect(await guard.check({ account: ' ada@example.com', address: '10.0.1.1' })).toEqual({
      allowed: false,
      retryAfterMs: 1_000,
    });
    expect((await guard.check({ account: 'grace@example.com', address: '10.0.1.1' })).allowed).toBe(true);

    for (let i = 0; i < 21; i++) await guard.failed({ account: `user${i}@example.com`, address: '192.0.2.7' });
    expect((await guard.check({ account: 'new@example.com', address: '192.0.2.7' })).allowed).toBe(false);
    expect((await guard.check({ address: '192.0.2.7' })).allowed).toBe(false);
    expect((await guard.check({ account: 'new@example.com', address: '192.0.2.8' })).allowed).toBe(true);
  });

  it('clears the account on success but not the address', async () => {
    const time = clock();
    const guard = SignInGuard.inMemory(time.now);
    for (let i = 0; i < 5; i++) await guard.failed({ account: 'ada@example.com', address: '192.0.2.1' });
    await guard.succeeded({ account: 'ada@example.com', address: '192.0.2.1' });
    expect((await guard.failed({ account: 'ada@example.com', address: '192.0.2.1' })).failures).toBe(1);
  });
});
