import type { Db } from './database';
import { hostMatches } from './skills';

/**
 * An account's hard limits on where its sessions may go, whatever the model decides: hosts never
 * opened, and (when `allowedHosts` is not empty) the only hosts that are. Patterns as for skills:
 * `example.com` (and its subdomains), `*.example.com` (subdomains only).
 */
export interface Guardrails {
  blockedHosts: string[];
  allowedHosts: string[];
}

export const NO_GUARDRAILS: Guardrails = { blockedHosts: [], allowedHosts: [] };

/**
 * Why the guardrails refuse a host, given every form it goes by (sessions/guardrails.ts lists them): a
 * blocked pattern matching any form refuses it; in allowed-hosts-only mode one form must be allowed.
 */
export function guardrailRefusal(rules: Guardrails, forms: readonly string[]): string | undefined {
  const host = forms[0] ?? '';
  for (const form of forms) {
    const blocked = rules.blockedHosts.find((pattern) => hostMatches(pattern, form));
    if (blocked) return `${host} is blocked by this account's guardrails (${blocked})`;
  }
  const allowed = forms.some((form) => rules.allowedHosts.some((pattern) => hostMatches(pattern, form)));
  if (rules.allowedHosts.length > 0 && !allowed)
    return `${host} is not one of the hosts this account's guardrails allow (${rules.allowedHosts.join(', ')})`;
  return undefined;
}

export class GuardrailStore {
  constructor(private readonly db: Db) {}

  async get(accountId: string): Promise<Guardrails> {
    const row = await this.db
      .selectFrom('guardrails')
      .select(['blocked_hosts', 'allowed_hosts'])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) return NO_GUARDRAILS;
    return {
      blockedHosts: JSON.parse(row.blocked_hosts) as string[],
      allowedHosts: JSON.parse(row.allowed_hosts) as string[],
    };
  }

  async set(accountId: string, rules: Guardrails, now = Date.now()): Promise<void> {
    const values = {
      blocked_hosts: JSON.stringify(rules.blockedHosts),
      allowed_hosts: JSON.stringify(rules.allowedHosts),
      updated_at: now,
    };
    await this.db
      .insertInto('guardrails')
      .values({ account_id: accountId, ...values })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
      .execute();
  }
}
