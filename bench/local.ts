/**
 * Local mode against remote mode on the same fixture page and the same command: one agent step through
 * HTTP (POST /v1/web/session/{id}, built-in planner "scroll down" on long.html), PASS when local costs at
 * most twice remote; plus the gateway round trips to the extension (a snapshot, and tab.info, the
 * cheapest allow-listed command, as the no-op). Needs the built extension (`npm run build:extension`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { chromiumArgs, findChromium } from '@tandem/relay';
import { chromium } from 'playwright-core';
import { startBenchRelay } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 30);
/** Local may cost at most this many times remote per step. */
const TARGET_RATIO = 2;
const STEP_CMD = 'scroll down';
const EXTENSION_DIR = fileURLToPath(new URL('../extension/.output/chrome-mv3', import.meta.url));

// Runs in the extension's service worker.
declare const chrome: {
  storage: {
    local: { set(items: Record<string, unknown>): Promise<void> };
    session: { get(key: string): Promise<Record<string, { status: string } | undefined>> };
  };
};

async function timed(rounds: number, run: () => Promise<unknown>): Promise<number[]> {
  await run(); // warm-up: runtime injection, first layout
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

export async function benchLocal(): Promise<void> {
  if (!existsSync(EXTENSION_DIR)) throw new Error('The extension is not built: run npm run build:extension first.');
  const site = await startFixtureSite();
  const relay = await startBenchRelay();
  const profile = mkdtempSync(join(tmpdir(), 'tandem-bench-ext-'));
  const context = await chromium.launchPersistentContext(profile, {
    headless: true,
    executablePath: findChromium(),
    args: [...chromiumArgs(), `--disable-extensions-except=${EXTENSION_DIR}`, `--load-extension=${EXTENSION_DIR}`],
  });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const token = (await relay.post('/v1/extension/token', { name: 'bench' })) as { token: string; device_id: string };
    await worker.evaluate((items) => chrome.storage.local.set(items), {
      relayUrl: relay.url,
      deviceToken: token.token,
      deviceId: token.device_id,
      apiEnabled: true,
    });
    const deadline = Date.now() + 15_000;
    while (
      (await worker.evaluate(async () => (await chrome.storage.session.get('connection')).connection?.status)) !==
      'connected'
    ) {
      if (Date.now() > deadline) throw new Error('the extension did not connect to the relay');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const account = await relay.services.store.accounts.first();
    if (!account) throw new Error('no account');
    const page = `${site.url}/long.html`;
    const open = async (local: boolean) =>
      (await relay.post('/v1/web/session', { url: page, local })).session_id as string;
    const sessions = { local: await open(true), remote: await open(false) };
    const step = (id: string) => async () => {
      const body = await relay.post(`/v1/web/session/${id}`, { cmd: STEP_CMD, stream: false });
      if (typeof body.status !== 'string') throw new Error(`step answered ${JSON.stringify(body)}`);
    };
    const steps = {
      local: await timed(ROUNDS, step(sessions.local)),
      remote: await timed(ROUNDS, step(sessions.remote)),
    };
    const localDriver = relay.services.sessions.get(account.id, sessions.local).driver;
    const snapshotTrip = await timed(ROUNDS, () => localDriver.snapshot());
    const deviceId = token.device_id;
    const tabId = relay.services.gateway.tabs.get(sessions.local)?.tabId;
    if (tabId === undefined) throw new Error('the local session has no tab on the gateway');
    const noopTrip = await timed(ROUNDS, () => relay.services.gateway.request(deviceId, 'tab.info', { tabId }, 5_000));

    const figures = {
      localStepP50: percentile(steps.local, 50),
      remoteStepP50: percentile(steps.remote, 50),
      snapshotRoundTripP50: percentile(snapshotTrip, 50),
      noopRoundTripP50: percentile(noopTrip, 50),
    };
    const ratio = figures.localStepP50 / figures.remoteStepP50;
    const verdict = ratio <= TARGET_RATIO ? 'PASS' : 'FAIL';
    printTable(
      `Local (extension) vs remote (Playwright): one step "${STEP_CMD}" on long.html over HTTP, median of ${ROUNDS}`,
      [
        { measure: 'step p50, local (ms)', value: round(figures.localStepP50) },
        { measure: 'step p50, remote (ms)', value: round(figures.remoteStepP50) },
        { measure: `ratio local/remote (target <= ${TARGET_RATIO})`, value: `${round(ratio, 2)} ${verdict}` },
        { measure: 'gateway round trip p50, snapshot (ms)', value: round(figures.snapshotRoundTripP50) },
        { measure: 'gateway round trip p50, tab.info no-op (ms)', value: round(figures.noopRoundTripP50) },
      ],
    );
    saveResults('local', { rounds: ROUNDS, ...figures, stepRatio: ratio, target: TARGET_RATIO, verdict });
  } finally {
    await context.close();
    await relay.close();
    await site.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
