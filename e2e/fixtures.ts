import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, test as base, chromium, type Worker } from '@playwright/test';
import { chromiumArgs, findChromium } from '@tandem/relay';
import { type FixtureSite, startFixtureSite } from './fixtures/index';

/** The unpacked extension that `npm run build:extension` writes. */
const EXTENSION_DIR = fileURLToPath(new URL('../extension/.output/chrome-mv3', import.meta.url));

interface TestFixtures {
  /** A persistent headless Chromium with the built extension loaded (replaces Playwright's `context`). */
  context: BrowserContext;
  /** The extension's background service worker. */
  serviceWorker: Worker;
  /** The id Chromium gave the loaded extension (host of the service worker URL). */
  extensionId: string;
}

interface WorkerFixtures {
  /** Absolute path of the built extension; fails the run with a hint when it is missing. */
  extensionDir: string;
  /** The loopback fixture site, one per worker. */
  site: FixtureSite;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  extensionDir: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) {
        throw new Error(`The extension is not built (${EXTENSION_DIR} is missing): run npm run build:extension`);
      }
      await use(EXTENSION_DIR);
    },
    { scope: 'worker' },
  ],

  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const site = await startFixtureSite();
      await use(site);
      await site.close();
    },
    { scope: 'worker' },
  ],

  context: async ({ extensionDir }, use) => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'tandem-e2e-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
      headless: true,
      executablePath: findChromium(),
      args: [...chromiumArgs(), `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
    });
    await use(context);
    await context.close();
    await rm(userDataDir, { recursive: true, force: true });
  },

  serviceWorker: async ({ context }, use) => {
    await use(context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker')));
  },

  extensionId: async ({ serviceWorker }, use) => {
    await use(new URL(serviceWorker.url()).host);
  },
});

export { expect } from '@playwright/test';
