import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../browser/chromium';
import { parseArgs, UsageError } from './common';

const USAGE = `Usage:
  npm run tandem-browser -- [--host 127.0.0.1] [--port 9323] [--path /SECRET]
Runs one Playwright browser server (a headless Chromium with the relay's flags) for relays to share:
list its ws:// endpoint in their TANDEM_BROWSER_WS_ENDPOINTS. Without --path the endpoint gets a random
path, which works as its password: anyone who knows the endpoint can drive the browser, so keep it
secret and listen on an address only the relays reach. The browser's pages load through each relay's
egress proxy, so the relays must set TANDEM_EGRESS_HOST / TANDEM_EGRESS_URL to an address this machine
reaches. CHROMIUM_PATH picks the Chromium. Runs until stopped (Ctrl-C or SIGTERM).`;

async function main(): Promise<void> {
  const { words, options } = parseArgs(process.argv.slice(2));
  if (words.length > 0) throw new UsageError(`Unexpected ${words.join(' ')}.`);
  const port = Number(options.get('port') ?? 9323);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number.');
  const wsPath = options.get('path') ?? `/${randomBytes(18).toString('base64url')}`;
  if (!wsPath.startsWith('/')) throw new UsageError('--path must start with /.');
  const server = await chromium.launchServer({
    executablePath: findChromium(process.env.CHROMIUM_PATH),
    args: chromiumArgs(),
    headless: true,
    host: options.get('host') ?? '127.0.0.1',
    port,
    wsPath,
  });
  process.stdout.write(`${server.wsEndpoint()}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** `npm run tandem-browser`: one browser server of a relay tier (TANDEM_BROWSER_WS_ENDPOINTS). */
main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof UsageError ? `${error.message}\n\n${USAGE}\n` : `${(error as Error).message ?? error}\n`,
  );
  process.exitCode = 1;
});
