import { ConfigError, launchDir, loadConfig, loadDotEnv } from '../config';
import type { Account } from '../store/accounts';
import { Store } from '../store/store';

/** A mistake on the command line: printed with the usage, exit code 1. */
export class UsageError extends Error {}

/** `--name value` options and the words left over. */
export function parseArgs(argv: string[]): { words: string[]; options: Map<string, string> } {
  const words: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${arg} needs a value.`);
    options.set(arg.slice(2), value);
  }
  return { words, options };
}

/** The account `--account EMAIL` names, else the first one (made at first start). */
export async function account(store: Store, email: string | undefined): Promise<Account> {
  const found = email ? await store.accounts.byEmail(email) : await store.accounts.first();
  if (!found)
    throw new UsageError(
      email ? `No account has the email ${email}.` : 'There is no account yet: start the relay once (npm start).',
    );
  return found;
}

/**
 * Runs a command against the relay's store, opened from the same settings as npm start (.env,
 * TANDEM_DATA_DIR, TANDEM_DATABASE_URL): its answer on stdout, a usage mistake on stderr with `usage`.
 */
export async function runCli(usage: string, run: (argv: string[], store: Store) => Promise<string>): Promise<void> {
  const dir = launchDir();
  loadDotEnv(dir);
  let store: Store | undefined;
  try {
    const config = loadConfig(process.env, {}, dir);
    store = await Store.open({ dataDir: config.TANDEM_DATA_DIR, databaseUrl: config.TANDEM_DATABASE_URL });
    process.stdout.write(`${await run(process.argv.slice(2), store)}\n`);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n\n${usage}\n`);
    process.exitCode = 1;
  } finally {
    await store?.close();
  }
}
