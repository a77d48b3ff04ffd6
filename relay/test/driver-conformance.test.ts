// The driver conformance suite (e2e/fixtures/conformance.ts) against the Playwright driver; e2e runs
// the same cases against the extension driver in a browser with the extension loaded.
import { CONFORMANCE_CASES, type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { BrowserHost } from '../src/browser/browser-host';
import { PlaywrightDriver } from '../src/browser/playwright-driver';

const logger = pino({ level: 'silent' });
let host: BrowserHost;
let site: FixtureSite;
const drivers: PlaywrightDriver[] = [];

beforeAll(async () => {
  host = new BrowserHost({ headless: true, logger });
  site = await startFixtureSite();
});
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.close()));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

async function open(path: string): Promise<PlaywrightDriver> {
  const driver = await PlaywrightDriver.open(host, {
    viewport: { width: 1280, height: 800 },
    navigationTimeoutMs: 10_000,
    logger,
  });
  drivers.push(driver);
  await driver.navigate(`${site.url}${path}`);
  return driver;
}

describe('driver conformance: the Playwright driver (remote sessions)', () => {
  for (const c of CONFORMANCE_CASES) it(c.name, () => c.run({ site: site.url, open }));
});
