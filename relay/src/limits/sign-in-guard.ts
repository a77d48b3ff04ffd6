import type { Redis } from 'ioredis';
import { type FailureLimiter, MemoryFailureLimiter, type Verdict } from './limiter';
import { RedisFailureLimiter } from './redis-limits';

const BACKOFF = { baseMs: 1_000, maxMs: 15 * 60_000, forgetMs: 15 * 60_000 };
const ACCOUNT_FREE = 5;
const ADDRESS_FREE = 20;

/** Who is trying to sign in: the account named (any email, existing or not) and the client's address. */
export interface SignInAttempt {
  /** The email as typed; compared case-insensitively. Absent for API-key sign-ins. */
  account?: string | undefined;
  address: string;
}

/**
 * Password guessing, limited per account and per client address with growing waits. Used wherever a
 * password is checked (the extension's device-token sign-in; the console's sign-in). A blocked attempt
 * is refused before the password is looked at, so waiting out the block is the only way on.
 */
export class SignInGuard {
  constructor(
    private readonly accounts: FailureLimiter,
    private readonly addresses: FailureLimiter,
  ) {}

  /**
   * An account gets 5 free tries, then waits of 1 s, 2 s, 4 s … up to 15 min; an address (which may be a
   * whole office behind NAT) 20 free tries. Failures are forgotten after 15 quiet minutes.
   */
  static inMemory(now?: () => number): SignInGuard {
    return new SignInGuard(
      new MemoryFailureLimiter({ ...BACKOFF, free: ACCOUNT_FREE, now }),
      new MemoryFailureLimiter({ ...BACKOFF, free: ADDRESS_FREE, now }),
    );
  }

  /** The same limits counted in Redis, so guesses spread over several relays add up. */
  static onRedis(redis: Redis): SignInGuard {
    return new SignInGuard(
      new RedisFailureLimiter(redis, { ...BACKOFF, free: ACCOUNT_FREE }, 'tandem:signin:account:'),
      new RedisFailureLimiter(redis, { ...BACKOFF, free: ADDRESS_FREE }, 'tandem:signin:address:'),
    );
  }

  /** Whether the attempt may be made now; when not, the longer of the two waits. */
  async check(attempt: SignInAttempt): Promise<Verdict> {
    const verdicts = await Promise.all([
      attempt.account === undefined ? undefined : this.accounts.check(accountKey(attempt.account)),
      this.addresses.check(attempt.address),
    ]);
    return longest(verdicts);
  }

  /** Counts a failed attempt against both; says how many the account has had and how long it must wait. */
  async failed(attempt: SignInAttempt): Promise<Verdict & { failures: number }> {
    const [account, address] = await Promise.all([
      attempt.account === undefined ? undefined : this.accounts.fail(accountKey(attempt.account)),
      this.addresses.fail(attempt.address),
    ]);
    return { ...longest([account, address]), failures: (account ?? address).failures };
  }

  /** A successful sign-in clears the account's failures; the address keeps its count (it may guess others). */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    if (attempt.account !== undefined) await this.accounts.succeed(accountKey(attempt.account));
  }
}

const accountKey = (email: string) => email.trim().toLowerCase();

function longest(verdicts: (Verdict | undefined)[]): Verdict {
  const wait = Math.max(0, ...verdicts.map((v) => (v && !v.allowed ? v.retryAfterMs : 0)));
  return { allowed: wait === 0, retryAfterMs: wait };
}
