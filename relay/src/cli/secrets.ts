import { MAX_SECRET_CHARS, MIN_SECRET_CHARS, SecretName } from '@tandem/shared';
import type { Store } from '../store/store';
import { account, parseArgs, runCli, UsageError } from './common';

const USAGE = `Usage (values are read from standard input, never from the command line):
  npm run secrets -- list [--account EMAIL]
  npm run secrets -- set NAME [--site HOST_PATTERN] [--account EMAIL]    # then type or pipe the value
  npm run secrets -- delete NAME [--account EMAIL]
The account is the first one (made at first start) unless --account names another. --site limits where
the value may be typed: example.com (and its subdomains), *.example.com (subdomains only); without it,
on any site. The relay reads the same settings (.env, TANDEM_DATA_DIR, TANDEM_DATABASE_URL) as npm start.`;

/** The value from standard input: typed without echo at a terminal, else everything piped in (one trailing newline dropped). */
async function readValue(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  process.stderr.write('Value (not shown): ');
  stdin.setRawMode(true);
  let value = '';
  try {
    for await (const chunk of stdin) {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return value;
        if (char === '\u0003') throw new UsageError('Cancelled.');
        if (char === '\u007f') value = value.slice(0, -1);
        else value += char;
      }
    }
    return value;
  } finally {
    stdin.setRawMode(false);
    process.stderr.write('\n');
  }
}

function nameOf(word: string | undefined): string {
  if (!SecretName.safeParse(word).success) throw new UsageError(`Give a secret name: ${SecretName.description}`);
  return word as string;
}

async function run(argv: string[], store: Store): Promise<string> {
  const { words, options } = parseArgs(argv);
  const [command, name] = words;
  const owner = await account(store, options.get('account'));
  switch (command) {
    case 'list': {
      const secrets = await store.secrets.list(owner.id);
      if (secrets.length === 0) return `No secrets for ${owner.email}.`;
      return secrets
        .map((s) => `<secret:${s.name}>  ${s.hostPattern ? `on ${s.hostPattern}` : 'on any site'}`)
        .join('\n');
    }
    case 'set': {
      const secretName = nameOf(name);
      const value = await readValue();
      if (value.length < MIN_SECRET_CHARS || value.length > MAX_SECRET_CHARS) {
        throw new UsageError(
          `A value must have ${MIN_SECRET_CHARS} to ${MAX_SECRET_CHARS} characters; nothing was stored.`,
        );
      }
      const site = options.get('site') ?? null;
      await store.secrets.set(owner.id, secretName, value, site);
      return `Stored <secret:${secretName}> for ${owner.email}, typed ${site ? `only on ${site}` : 'on any site'}.`;
    }
    case 'delete': {
      const secretName = nameOf(name);
      const removed = await store.secrets.remove(owner.id, secretName);
      return removed ? `Deleted <secret:${secretName}>.` : `${owner.email} has no secret ${secretName}.`;
    }
    default:
      throw new UsageError(command ? `Unknown command ${command}.` : 'Give a command.');
  }
}

/** `npm run secrets`: the account's secrets in the relay's store, from a shell. */
void runCli(USAGE, run);
