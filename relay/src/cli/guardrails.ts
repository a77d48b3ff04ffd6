import { HostPattern } from '@tandem/shared';
import type { Guardrails } from '../store/guardrails';
import type { Store } from '../store/store';
import { account, parseArgs, runCli, UsageError } from './common';

const USAGE = `Usage (host patterns: example.com and its subdomains, *.example.com subdomains only):
  npm run guardrails -- show [--account EMAIL]
  npm run guardrails -- block PATTERN... [--account EMAIL]     # never open these hosts
  npm run guardrails -- unblock PATTERN... [--account EMAIL]
  npm run guardrails -- allow PATTERN... [--account EMAIL]     # open only allowed hosts (allowed-hosts-only mode)
  npm run guardrails -- disallow PATTERN... [--account EMAIL]
  npm run guardrails -- allow-all [--account EMAIL]            # leave allowed-hosts-only mode
The account is the first one (made at first start) unless --account names another. The relay enforces
them on every session opened afterwards, remote and local, whatever the model decides. The relay reads
the same settings (.env, TANDEM_DATA_DIR, TANDEM_DATABASE_URL) as npm start.`;

/** What `show` prints. */
function describe(email: string, rules: Guardrails): string {
  const blocked = rules.blockedHosts.length ? rules.blockedHosts.join(', ') : 'none';
  const allowed = rules.allowedHosts.length ? `only ${rules.allowedHosts.join(', ')}` : 'every host not blocked';
  return `${email}: blocked hosts: ${blocked}; allowed: ${allowed}.`;
}

/** A host pattern as skills take it: a host name, optionally with a leading `*.`, nothing else. */
function patternsOf(words: string[]): string[] {
  if (words.length === 0) throw new UsageError('Give at least one host pattern.');
  return words.map((word) => {
    // The same patterns the admin API takes for skills.
    const parsed = HostPattern.safeParse(word);
    if (!parsed.success)
      throw new UsageError(`"${word}" is not a host pattern (example.com, *.example.com, 10.0.0.5).`);
    return parsed.data;
  });
}

const without = (list: string[], drop: string[]) => list.filter((p) => !drop.includes(p));
const withAll = (list: string[], add: string[]) => [...list, ...add.filter((p) => !list.includes(p))];

async function run(argv: string[], store: Store): Promise<string> {
  const { words, options } = parseArgs(argv);
  const [command, ...rest] = words;
  const owner = await account(store, options.get('account'));
  const rules = await store.guardrails.get(owner.id);
  let next: Guardrails;
  switch (command) {
    case 'show':
      return describe(owner.email, rules);
    case 'block':
      next = { ...rules, blockedHosts: withAll(rules.blockedHosts, patternsOf(rest)) };
      break;
    case 'unblock':
      next = { ...rules, blockedHosts: without(rules.blockedHosts, patternsOf(rest)) };
      break;
    case 'allow':
      next = { ...rules, allowedHosts: withAll(rules.allowedHosts, patternsOf(rest)) };
      break;
    case 'disallow':
      next = { ...rules, allowedHosts: without(rules.allowedHosts, patternsOf(rest)) };
      break;
    case 'allow-all':
      next = { ...rules, allowedHosts: [] };
      break;
    default:
      throw new UsageError(command ? `Unknown command ${command}.` : 'Give a command.');
  }
  await store.guardrails.set(owner.id, next);
  return describe(owner.email, next);
}

/** `npm run guardrails`: an account's blocked and allowed hosts, from a shell (the console will set them too). */
void runCli(USAGE, run);
