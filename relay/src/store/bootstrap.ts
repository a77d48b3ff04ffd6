import { randomBase62 } from './secrets';
import type { Store } from './store';

export interface FirstStartCredentials {
  email: string;
  password: string;
  apiKey: string;
}

/**
 * On an empty database: creates the first account and an API key and returns them (to be printed once).
 * With a bootstrap key: makes sure that exact key exists for the first account. Relays starting together
 * on one database take turns, so only one of them creates the account.
 */
export async function bootstrap(
  store: Store,
  options: { adminEmail: string; bootstrapKey?: string | undefined },
): Promise<FirstStartCredentials | undefined> {
  return store.transaction(
    async (tx) => {
      let created: FirstStartCredentials | undefined;
      let account = await tx.accounts.first();
      if (!account) {
        const password = randomBase62(96);
        // The printed password is a first-run one: the console asks for a new one at the first sign-in.
        account = await tx.accounts.create(options.adminEmail, password, { role: 'admin', mustChangePassword: true });
        const { key } = await tx.apiKeys.create(account.id, 'first key');
        created = { email: account.email, password, apiKey: key };
      }
      if (options.bootstrapKey)
        await tx.apiKeys.ensure(account.id, options.bootstrapKey, 'bootstrap key (TANDEM_BOOTSTRAP_KEY)');
      return created;
    },
    { lock: 'bootstrap' },
  );
}
