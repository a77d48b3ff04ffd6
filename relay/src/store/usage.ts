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

  async record(accountId: string, delta: UsageDelta, now = new Date()): Promise<void> {
    // One statement, so concurrent steps (and relays) add up instead of overwriting each other.
    await this.db
      .insertInto('usage')
      .values({
        account_id: accountId,
        day: now.toISOString().slice(0, 10),
        steps: delta.steps,
        prompt_tokens: delta.promptTokens,
        completion_tokens: delta.completionTokens,
        cached_tokens: delta.cachedTokens,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'day']).doUpdateSet((eb) => ({
          steps: eb('usage.steps', '+', eb.ref('excluded.steps')),
          prompt_tokens: eb('usage.prompt_tokens', '+', eb.ref('excluded.prompt_tokens')),
          completion_tokens: eb('usage.completion_tokens', '+', eb.ref('excluded.completion_tokens')),
          cached_tokens: eb('usage.cached_tokens', '+', eb.ref('excluded.cached_tokens')),
        })),
      )
      .execute();
  }

  /** Steps the account ran in `now`'s calendar month (UTC): what the monthly quota counts. */
  async stepsThisMonth(accountId: string, now = new Date()): Promise<number> {
    return this.stepsSince(accountId, monthStart(now).toISOString().slice(0, 10));
  }

  /** Steps the account ran from `firstDay` (YYYY-MM-DD, UTC) on. */
  async stepsSince(accountId: string, firstDay: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage')
      .select((eb) => eb.fn.sum<number | string | bigint | null>('steps').as('steps'))
      .where('account_id', '=', accountId)
      .where('day', '>=', firstDay)
      .executeTakeFirst();
    // SQLite answers a number, Postgres a numeric string (or a bigint, by driver).
    return Number(row?.steps ?? 0);
  }

  async day(accountId: string, day: string): Promise<UsageDelta> {
    const row = await this.db
      .selectFrom('usage')
      .select([
        'steps',
        'prompt_tokens as promptTokens',
        'completion_tokens as completionTokens',
        'cached_tokens as cachedTokens',
      ])
      .where('account_id', '=', accountId)
      .where('day', '=', day)
      .executeTakeFirst();
    return row ?? { steps: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  }
}

/** The first moment of `now`'s calendar month (UTC); with `months`, of a later one. */
export function monthStart(now: Date, months = 0): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
}
