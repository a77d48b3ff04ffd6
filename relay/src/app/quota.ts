import { QuotaExceeded } from '../errors';

export interface QuotaDeps {
  /** The account's monthly step quota, null when it has none (the store's quotas). */
  quotas: { monthlySteps(accountId: string): Promise<number | null> };
  /** Steps run from a day on (the store's usage ledger). */
  usage: { stepsSince(accountId: string, firstDay: string): Promise<number> };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The monthly step quota, checked before a browse, a step or a retrieve starts any work (no session is
 * opened and no page loaded for a refused call). A browse already running finishes its steps.
 */
export class QuotaGate {
  constructor(private readonly deps: QuotaDeps) {}

  async check(accountId: string, now = new Date()): Promise<void> {
    const quota = await this.deps.quotas.monthlySteps(accountId);
    if (quota === null) return;
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const used = await this.deps.usage.stepsSince(accountId, day(month));
    if (used < quota) return;
    throw new QuotaExceeded(quota, used, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
  }
}
