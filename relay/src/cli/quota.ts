import type { Store } from '../store/store';
import { account, parseArgs, runCli, UsageError } from './common';

const USAGE = `Usage:
  npm run quota -- show [--account EMAIL]
  npm run quota -- set STEPS [--account EMAIL]      # agent steps per calendar month (UTC)
  npm run quota -- set unlimited [--account EMAIL]  # lifts the quota (the default)
The account is the first one (made at first start) unless --account names another. When the steps run
this month reach the quota, browse, step and retrieve answer 402 until the month ends. The relay reads
the same settings (.env, TANDEM_DATA_DIR, TANDEM_DATABASE_URL) as npm start.`;

async function run(argv: string[], store: Store): Promise<string> {
  const { words, options } = parseArgs(argv);
  const [command, value] = words;
  const owner = await account(store, options.get('account'));
  const used = await store.usage.stepsThisMonth(owner.id);
  switch (command) {
    case 'show': {
      const quota = await store.quotas.monthlySteps(owner.id);
      return `${owner.email}: ${used} steps this month, quota ${quota === null ? 'unlimited' : `${quota} steps a month`}.`;
    }
    case 'set': {
      if (value === 'unlimited') {
        await store.quotas.setMonthlySteps(owner.id, null);
        return `${owner.email}: no monthly step quota (${used} steps this month).`;
      }
      const steps = Number(value);
      if (!value || !Number.isSafeInteger(steps) || steps < 0)
        throw new UsageError(
          `Give the steps per month as a whole number (0 or more), or "unlimited"; got ${value ?? 'nothing'}.`,
        );
      await store.quotas.setMonthlySteps(owner.id, steps);
      return `${owner.email}: ${steps} steps a month (${used} used this month).`;
    }
    default:
      throw new UsageError(command ? `Unknown command ${command}.` : 'Give a command.');
  }
}

/** `npm run quota`: an account's monthly step quota, from a shell (the console will set it too). */
void runCli(USAGE, run);
