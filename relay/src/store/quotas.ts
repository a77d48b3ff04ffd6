import type { Db } from './database';

/** Monthly step quotas an admin set per account; an account without one is not limited. */
export class Quotas {
  constructor(private readonly db: Db) {}

  async monthlySteps(accountId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('quotas')
      .select('monthly_steps')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row ? Number(row.monthly_steps) : null;
  }

  /** Sets the account's quota; null lifts it. */
  async setMonthlySteps(accountId: string, steps: number | null, now = Date.now()): Promise<void> {
    if (steps === null) {
      await this.db.deleteFrom('quotas').where('account_id', '=', accountId).execute();
      return;
    }
    await this.db
      .insertInto('quotas')
      .values({ account_id: accountId, monthly_steps: steps, updated_at: now })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ monthly_steps: steps, updated_at: now }))
      .execute();
  }
}
