import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, test as base, chromium, type Worker } from '@playwright/test';
import { chromiumArgs, createLogger, type Env, findChromium, loadConfig, type Relay, startRelay } from '@tandem/relay';
import { type FixtureSite, type ModelServer, startFixtureSite, startModelServer } from './fixtures/index';

/** The unpacked extension that `npm run build:extension` writes. */
const EXTENSION_DIR = fileURLToPath(new URL('../extension/.output/chrome-mv3', import.meta.url));

/** A relay on an ephemeral loopback port with a temp data dir, plus what a test needs to call it. */
export interface TestRelay {
  url: string;
  /** An API key of the first account. */
  key: string;
  email: string;
  password: string;
  /** The first account's id (the key's). */
  accountId: string;
  relay: Relay;
  /** Calls the HTTP API with the key; returns status and parsed JSON. */
  api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Stops the relay and starts a new one on the same port and data dir (same accounts and devices). */
  restart(): Promise<void>;
}

/** How long a restarting relay waits for its old port to be free again. */
const RESTART_PORT_WAIT_MS = 10_000;

export const RELAY_KEY = 'tdm_e2e_key_0123456789abcdefghijklmnop';

/** Calls a relay's HTTP API with the fixtures' key; returns status and parsed JSON. */
export async function callRelay<T = Record<string, unknown>>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { X_SERVICE_API_KEY: RELAY_KEY, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

interface TestFixtures {
  /** A fresh relay for this test. */
  relay: TestRelay;
  /** The scripted model server, emptied for this test (the relay plans with it under `test.use({ useModel: true })`). */
  model: ModelServer;
  /** A persistent headless Chromium with the built extension loaded (replaces Playwright's `context`). */
  context: BrowserContext;
  /** The extension's background service worker. */
  serviceWorker: Worker;
  /** The id Chromium gave the loaded extension (host of the service worker URL). */
  extensionId: string;
}

interface TestOptions {
  /** Settings for this test's relay on top of the fixture's (`test.use({ relayEnv: { … } })`). */
  relayEnv: Partial<Env>;
  /** Whether the relay's planner is the LLM one, talking to the scripted model server (else the built-in one). */
  useModel: boolean;
}

interface WorkerFixtures {
  /** Absolute path of the built extension; fails the run with a hint when it is missing. */
  extensionDir: string;
  /** The loopback fixture site, one per worker. */
  site: FixtureSite;
  /** The scripted OpenAI-compatible model server, one per worker (tests take it emptied, as `model`). */
  modelServer: ModelServer;
}

export const test = base.extend<TestFixtures & TestOptions, WorkerFixtures>({
  relayEnv: [{}, { option: true }],
  useModel: [false, { option: true }],

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

  modelServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const server = await startModelServer({ models: ['fast-model', 'standard-model'] });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],

  model: async ({ modelServer }, use) => {
    modelServer.reset();
    await use(modelServer);
    modelServer.reset();
  },

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

  relay: async ({ relayEnv, useModel, modelServer }, use) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tandem-e2e-relay-'));
    // As the relay's own agent tests configure it: prompt-mode output, no retries, so a script is followed exactly.
    const modelEnv: Partial<Env> = useModel
      ? {
          OPENAI_BASE_URL: modelServer.url,
          OPENAI_API_KEY: 'sk-test',
          TANDEM_MODEL_FAST: 'fast-model',
          TANDEM_MODEL_STANDARD: 'standard-model',
          TANDEM_MODEL_OUTPUT: 'prompt',
          TANDEM_MODEL_MAX_RETRIES: 0,
        }
      : {};
    const start = (port: number) =>
      startRelay(
        loadConfig(
          { CHROMIUM_PATH: process.env.CHROMIUM_PATH },
          {
            PORT: port,
            HOST: '127.0.0.1',
            TANDEM_DATA_DIR: dataDir,
            TANDEM_BOOTSTRAP_KEY: RELAY_KEY,
            TANDEM_ADMIN_EMAIL: 'admin@example.com',
            LOG_LEVEL: 'silent',
            ...modelEnv,
            ...relayEnv,
          },
        ),
        { logger: createLogger((process.env.TANDEM_TEST_LOG ?? 'silent') as 'silent') },
      );
    let relay = await start(0);
    const password = relay.firstStart?.password ?? '';
    const port = Number(new URL(relay.url).port);
    const handle: TestRelay = {
      url: relay.url,
      key: RELAY_KEY,
      email: 'admin@example.com',
      password,
      accountId: (await relay.services.store.accounts.first())?.id ?? '',
      get relay() {
        return relay;
      },
      api: (method, path, body) => callRelay(relay.url, method, path, body),
      async restart() {
        await relay.close();
        // Same port: the extension keeps the relay URL it was given. Another process on this machine
        // may bind the freed port in the meantime (tests run in parallel), so wait for it to come free.
        const deadline = Date.now() + RESTART_PORT_WAIT_MS;
        for (;;) {
          try {
            relay = await start(port);
            return;
          } catch (error) {
            const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
            if (!busy || Date.now() > deadline) {
              throw new Error(`the relay could not restart on port ${port}: ${String(error)}`);
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      },
    };
    await use(handle);
    await relay.close();
    await rm(dataDir, { recursive: true, force: true });
  },

  serviceWorker: async ({ context }, use) => {
    await use(context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker')));
  },

  extensionId: async ({ serviceWorker }, use) => {
    await use(new URL(serviceWorker.url()).host);
  },
});

export { expect } from '@playwright/test';
