import type { UsageByKey, UsageCounts, UsageDay, UsageResponse } from '@tandem/shared';
import type { ApiKeyRecord } from '../store/api-keys';
import { dayOf, monthStart, type UsageRow } from '../store/usage';

export interface UsageServiceDeps {
  usage: {
    rows(accountId: string, firstDay: string, lastDay: string): Promise<UsageRow[]>;
    stepsThisMonth(accountId: string, now: Date): Promise<number>;
  };
  quotas: { monthlySteps(accountId: string): Promise<number | null> };
  /** The account's keys, revoked ones too, to name the keys usage was counted under. */
  apiKeys: { list(accountId: string, options: { revoked: boolean }): Promise<ApiKeyRecord[]> };
}

const zero = (): UsageCounts => ({ steps: 0, prompt_tokens: 0, completion_tokens: 0, retrieve_calls: 0 });

function add(into: UsageCounts, row: UsageRow): void {
  into.steps += row.steps;
  into.prompt_tokens += row.promptTokens;
  into.completion_tokens += row.completionTokens;
  into.retrieve_calls += row.retrieveCalls;
}

/** Usage per day and per API key, and the monthly step quota with what is left of it. */
export class UsageService {
  constructor(private readonly deps: UsageServiceDeps) {}

  async report(accountId: string, days: number, now = new Date()): Promise<UsageResponse> {
    const last = dayOf(now);
    const first = dayOf(new Date(now.getTime() - (days - 1) * 86_400_000));
    const [rows, keys, quota, used] = await Promise.all([
      this.deps.usage.rows(accountId, first, last),
      this.deps.apiKeys.list(accountId, { revoked: true }),
      this.deps.quotas.monthlySteps(accountId),
      this.deps.usage.stepsThisMonth(accountId, now),
    ]);

    const byDay = new Map<string, UsageDay>();
    for (let i = 0; i < days; i++) {
      const day = dayOf(new Date(now.getTime() - (days - 1 - i) * 86_400_000));
      byDay.set(day, { day, ...zero(), keys: [] });
    }
    const totals = zero();
    const perKey = new Map<string, UsageCounts>();
    for (const row of rows) {
      const day = byDay.get(row.day);
      if (!day) continue;
      add(day, row);
      add(totals, row);
      const counts = { key_id: row.keyId, ...zero() };
      add(counts, row);
      day.keys.push(counts);
      const key = perKey.get(row.keyId) ?? zero();
      add(key, row);
      perKey.set(row.keyId, key);
    }
    const names = new Map(keys.map((k) => [k.id, k]));
    const byKey: UsageByKey[] = [...perKey.entries()]
      .map(([keyId, counts]) => {
        const key = names.get(keyId);
        return {
          key_id: keyId,
          name: key?.name ?? (keyId ? 'deleted key' : ''),
          prefix: key?.prefix ?? '',
          revoked: key ? key.revokedAt !== null : keyId !== '',
          ...counts,
        };
      })
      .sort((a, b) => b.steps - a.steps || b.retrieve_calls - a.retrieve_calls);
    return {
      from: first,
      to: last,
      totals,
      days: [...byDay.values()],
      keys: byKey,
      quota: {
        monthly_steps: quota,
        used,
        resets_at: monthStart(now, 1).toISOString(),
      },
    };
  }
}
