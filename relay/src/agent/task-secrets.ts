import { secretNames } from '@tandem/shared';
import { DomainError } from '../errors';
import type { AccountSecrets, SecretValue } from '../store/account-secrets';
import type { Conversation } from './conversation';

/** A cmd named a `<secret:name>` neither the call nor the account has. */
export class UnknownSecret extends DomainError {
  constructor(message: string) {
    super('unknown_secret', message);
  }
}

/**
 * The text whose `<secret:name>` placeholders a call may type: its cmd, and the session's task when the
 * cmd goes on with it (empty) or answers the agent's question (the task's own placeholders still apply).
 */
export function secretsText(cmd: string, conversation: Conversation | undefined): string {
  const text = cmd.trim();
  const continues = !text || conversation?.pendingQuestion !== undefined;
  return continues ? `${text}\n${conversation?.task ?? ''}` : text;
}

/**
 * The values for the placeholders in `text`: the call's own (`optional_params.secrets`) first, then the
 * account's store. A name neither has is refused (UnknownSecret) before anything runs; the message names it, never a value.
 */
export async function resolveSecrets(
  store: Pick<AccountSecrets, 'resolve'>,
  accountId: string,
  text: string,
  given: Readonly<Record<string, string>> = {},
): Promise<Map<string, SecretValue>> {
  const names = secretNames(text);
  const resolved = new Map<string, SecretValue>();
  const fromStore = await store.resolve(
    accountId,
    names.filter((name) => !Object.hasOwn(given, name)),
  );
  const unknown: string[] = [];
  for (const name of names) {
    const value = Object.hasOwn(given, name)
      ? { value: given[name] as string, hostPattern: null }
      : fromStore.get(name);
    if (value) resolved.set(name, value);
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    const list = unknown.map((name) => `<secret:${name}>`).join(', ');
    throw new UnknownSecret(
      `The cmd names ${unknown.length === 1 ? 'a secret' : 'secrets'} this account does not have: ${list}. Store ${unknown.length === 1 ? 'it' : 'them'} first (see "Secrets" in the README), or pass the value${unknown.length === 1 ? '' : 's'} in optional_params.secrets of this call.`,
    );
  }
  return resolved;
}
