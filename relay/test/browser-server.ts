/**
 * A Playwright browser server in its own process, as on another machine: `tsx browser-server.ts PORT PATH`.
 * Prints the ws endpoint on stdout and runs until SIGTERM.
 */
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../src/browser/chromium';

const [port, wsPath] = process.argv.slice(2);
const server = await chromium.launchServer({
  executablePath: findChromium(),
  args: chromiumArgs(),
  headless: true,
  host: '127.0.0.1',
  port: Number(port),
  wsPath,
});
process.stdout.write(`${server.wsEndpoint()}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
