import type { Db } from './database';

export interface UsageDelta {
  steps: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

/** Steps and model tokens per account per UTC day (quotas and the console read it). */
export class UsageLedger {
  constructor(private readonly db: Db) {}

  record(accountId: string, delta: UsageDelta, now = new Date()): void {
    this.db
      .prepare(
        `INSERT INTO usage (account_id, day, steps, prompt_tokens, completion_tokens, cached_tokens)
         VALUES (@accountId, @day, @steps, @promptTokens, @completionTokens, @cachedTokens)
         ON CONFLICT (account_id, day) DO UPDATE SET
           steps = steps + excluded.steps,
           prompt_tokens = prompt_tokens + excluded.prompt_tokens,
           completion_tokens = completion_tokens + excluded.completion_tokens,
           cached_tokens = cached_tokens + excluded.cached_tokens`,
      )
      .run({ accountId, day: now.toISOString().slice(0, 10), ...delta });
  }

  day(accountId: string, day: string): UsageDelta {
    const row = this.db
      .prepare(
        'SELECT steps, prompt_tokens AS promptTokens, completion_tokens AS completionTokens, cached_tokens AS cachedTokens FROM usage WHERE account_id = ? AND day = ?',
      )
      .get(accountId, day) as UsageDelta | undefined;
    return row ?? { steps: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  }
}
