// Playwright drivers on one shared Chromium and the fixture site, for driver-level test files: each
// test's drivers are closed after it, the browser and the site after the file.
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { BrowserHost } from '../src/browser/browser-host';
import { PlaywrightDriver } from '../src/browser/playwright-driver';
import type { Logger } from '../src/logger';

export interface PlaywrightDrivers {
  host: BrowserHost;
  site: FixtureSite;
  logger: Logger;
  /** Closed after each test. */
  drivers: PlaywrightDriver[];
  /** A new driver (1280×800, 10 s navigation timeout) at `path` of the fixture site. */
  open(path: string): Promise<PlaywrightDriver>;
}

export function usePlaywrightDrivers(): PlaywrightDrivers {
  const h = { logger: pino({ level: 'silent' }) as Logger, drivers: [] as PlaywrightDriver[] } as PlaywrightDrivers;
  beforeAll(async () => {
    h.host = new BrowserHost({ headless: true, logger: h.logger });
    h.site = await startFixtureSite();
  });
  afterEach(async () => {
    await Promise.all(h.drivers.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await h.host?.close();
    await h.site?.close();
  });
  h.open = async (path) => {
    const driver = await PlaywrightDriver.open(h.host, {
      viewport: { width: 1280, height: 800 },
      navigationTimeoutMs: 10_000,
      logger: h.logger,
    });
    h.drivers.push(driver);
    await driver.navigate(`${h.site.url}${path}`);
    return driver;
  };
  return h;
}
