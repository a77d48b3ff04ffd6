import { QuotaExceeded } from '../errors';
import { monthStart } from '../store/usage';

export interface QuotaDeps {
  /** The account's monthly step quota, null when it has none (the store's quotas). */
  quotas: { monthlySteps(accountId: string): Promise<number | null> };
  /** Steps run this month (the store's usage ledger). */
  usage: { stepsThisMonth(accountId: string, now: Date): Promise<number> };
}

/**
 * The monthly step quota, checked before a browse, a step or a retrieve starts any work (no session is
 * opened and no page loaded for a refused call). A browse already running finishes its steps.
 */
export class QuotaGate {
  constructor(private readonly deps: QuotaDeps) {}

  async check(accountId: string, now = new Date()): Promise<void> {
    const quota = await this.deps.quotas.monthlySteps(accountId);
    if (quota === null) return;
    const used = await this.deps.usage.stepsThisMonth(accountId, now);
    if (used < quota) return;
    throw new QuotaExceeded(quota, used, monthStart(now, 1));
  }
}
