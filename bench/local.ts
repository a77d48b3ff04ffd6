/**
 * Local mode against remote mode on the same fixture page and the same action: the driver's cost of a
 * snapshot (for local, the gateway round trip to the extension) and of a step (snapshot + action).
 * Needs the built extension (`npm run build:extension`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { chromiumArgs, findChromium } from '@tandem/relay';
import type { Action } from '@tandem/shared';
import { chromium } from 'playwright-core';
import { startBenchRelay } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

const ROUNDS = Number(process.env.BENCH_RUNS ?? 30);
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

    const account = relay.services.store.accounts.first();
    if (!account) throw new Error('no account');
    const open = async (local: boolean) => {
      const created = await relay.post('/v1/web/session', { url: `${site.url}/form.html`, local });
      return relay.services.sessions.get(account.id, created.session_id as string).driver;
    };
    const drivers = { local: await open(true), remote: await open(false) };
    const rows = [];
    const figures: Record<string, number> = {};
    for (const [kind, driver] of Object.entries(drivers)) {
      const snapshot = await driver.snapshot();
      const field = snapshot.elements.find((e) => e.attributes.name === 'name');
      if (!field) throw new Error('no name field on form.html');
      const action: Action = { action: 'scroll', direction: 'down', amount: 1, index: field.index };
      const snap = await timed(ROUNDS, () => driver.snapshot());
      const step = await timed(ROUNDS, async () => {
        await driver.snapshot();
        await driver.act(action);
      });
      figures[`${kind}SnapshotP50`] = percentile(snap, 50);
      figures[`${kind}StepP50`] = percentile(step, 50);
      rows.push({ mode: kind, snapshot_p50_ms: round(percentile(snap, 50)), step_p50_ms: round(percentile(step, 50)) });
    }
    const ratio = (figures.localStepP50 ?? 0) / (figures.remoteStepP50 ?? 1);
    rows.push({ mode: 'ratio local/remote (target <= 2)', snapshot_p50_ms: '', step_p50_ms: round(ratio, 2) });
    printTable(`Local (extension) vs remote (Playwright) driver cost, form.html, median of ${ROUNDS}`, rows);
    saveResults('local', { rounds: ROUNDS, ...figures, stepRatio: ratio, target: 2 });
  } finally {
    await context.close();
    await relay.close();
    await site.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
