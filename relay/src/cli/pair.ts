import type { Store } from '../store/store';
import { account, parseArgs, runCli, UsageError } from './common';

const USAGE = `Usage:
  npm run pair [--account EMAIL]
Prints a one-time code that signs the Tandem extension in to the account (the popup's "Pairing code"
field), instead of its email and password. A code works once, for 10 minutes. The account is the first
one (made at first start) unless --account names another. The relay reads the same settings (.env,
TANDEM_DATA_DIR, TANDEM_DATABASE_URL) as npm start.`;

async function run(argv: string[], store: Store): Promise<string> {
  const { words, options } = parseArgs(argv);
  if (words.length > 0) throw new UsageError(`Unexpected ${words.join(' ')}.`);
  const owner = await account(store, options.get('account'));
  const { code, expiresAt } = await store.pairingCodes.create(owner.id);
  const until = new Date(expiresAt).toISOString().slice(11, 16);
  return `Pairing code for ${owner.email}: ${code}\nType it into the extension's popup (Pairing code) before ${until} UTC; it works once.`;
}

/** `npm run pair`: a one-time code for signing the extension in. */
void runCli(USAGE, run);
