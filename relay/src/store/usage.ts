import type { Db } from './database';

export interface UsageDelta {
  steps: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Retrieve calls answered; absent: none. */
  retrieveCalls?: number;
}

/** A day's use by one API key ('' for work no key asked for). */
export interface UsageRow extends Required<UsageDelta> {
  day: string;
  keyId: string;
}

/** The UTC day of a moment, YYYY-MM-DD: the ledger's unit. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** Steps, model tokens and retrieve calls per account, API key and UTC day (quotas and the console read it). */
export class UsageLedger {
  constructor(private readonly db: Db) {}

  /** Adds `delta` to the account's day, under the API key the work was asked for with ('' for none). */
  async record(accountId: string, delta: UsageDelta, now = new Date(), keyId = ''): Promise<void> {
    // One statement, so concurrent steps (and relays) add up instead of overwriting each other.
    await this.db
      .insertInto('usage_daily')
      .values({
        account_id: accountId,
        key_id: keyId,
        day: dayOf(now),
        steps: delta.steps,
        prompt_tokens: delta.promptTokens,
        completion_tokens: delta.completionTokens,
        cached_tokens: delta.cachedTokens,
        retrieve_calls: delta.retrieveCalls ?? 0,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'day', 'key_id']).doUpdateSet((eb) => ({
          steps: eb('usage_daily.steps', '+', eb.ref('excluded.steps')),
          prompt_tokens: eb('usage_daily.prompt_tokens', '+', eb.ref('excluded.prompt_tokens')),
          completion_tokens: eb('usage_daily.completion_tokens', '+', eb.ref('excluded.completion_tokens')),
          cached_tokens: eb('usage_daily.cached_tokens', '+', eb.ref('excluded.cached_tokens')),
          retrieve_calls: eb('usage_daily.retrieve_calls', '+', eb.ref('excluded.retrieve_calls')),
        })),
      )
      .execute();
  }

  /** Steps the account ran in `now`'s calendar month (UTC): what the monthly quota counts. */
  async stepsThisMonth(accountId: string, now = new Date()): Promise<number> {
    return this.stepsSince(accountId, dayOf(monthStart(now)));
  }

  /** Steps the account ran from `firstDay` (YYYY-MM-DD, UTC) on. */
  async stepsSince(accountId: string, firstDay: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage_daily')
      .select((eb) => eb.fn.sum<number | string | bigint | null>('steps').as('steps'))
      .where('account_id', '=', accountId)
      .where('day', '>=', firstDay)
      .executeTakeFirst();
    // SQLite answers a number, Postgres a numeric string (or a bigint, by driver).
    return Number(row?.steps ?? 0);
  }

  /** Steps every account ran from `firstDay` on, by account (the admin's list). */
  async stepsSinceByAccount(firstDay: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('usage_daily')
      .select((eb) => ['account_id', eb.fn.sum<number | string | bigint | null>('steps').as('steps')])
      .where('day', '>=', firstDay)
      .groupBy('account_id')
      .execute();
    return new Map(rows.map((r) => [r.account_id, Number(r.steps ?? 0)]));
  }

  /** The account's whole day, every key added up. */
  async day(accountId: string, day: string): Promise<Required<UsageDelta>> {
    const total: Required<UsageDelta> = {
      steps: 0,
      promptTokens: 0,
      completionTokens: 0,
      cachedTokens: 0,
      retrieveCalls: 0,
    };
    for (const row of await this.rows(accountId, day, day)) {
      total.steps += row.steps;
      total.promptTokens += row.promptTokens;
      total.completionTokens += row.completionTokens;
      total.cachedTokens += row.cachedTokens;
      total.retrieveCalls += row.retrieveCalls;
    }
    return total;
  }

  /** The account's rows from `firstDay` to `lastDay` (inclusive), per day and key, oldest first. */
  async rows(accountId: string, firstDay: string, lastDay: string): Promise<UsageRow[]> {
    const rows = await this.db
      .selectFrom('usage_daily')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('day', '>=', firstDay)
      .where('day', '<=', lastDay)
      .orderBy('day')
      .orderBy('key_id')
      .execute();
    return rows.map((r) => ({
      day: r.day,
      keyId: r.key_id,
      steps: Number(r.steps),
      promptTokens: Number(r.prompt_tokens),
      completionTokens: Number(r.completion_tokens),
      cachedTokens: Number(r.cached_tokens),
      retrieveCalls: Number(r.retrieve_calls),
    }));
  }
}

/** The first moment of `now`'s calendar month (UTC); with `months`, of a later one. */
export function monthStart(now: Date, months = 0): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
}
