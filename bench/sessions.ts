/**
 * Session create through the HTTP API against raw Playwright (newContext + newPage + goto) on the same
 * page and the same Chromium, interleaved in one run (raw Playwright also through the egress proxy, to
 * show what the proxy alone costs); then the memory of 20 idle sessions, measured on a
 * relay started the way `npm start` starts it, in its own process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { BENCH_KEY, startBenchRelay } from './relay';
import { descendants, percentile, printTable, pssKiB, round, saveResults, verdict } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const IDLE_SESSIONS = 20;

export async function benchSessions(): Promise<void> {
  const site = await startFixtureSite();
  const relay = await startBenchRelay({ TANDEM_MAX_SESSIONS: 100 });
  const headers = relay.headers;
  const page = `${site.url}/form.html`;
  const create = async () => (await relay.post('/v1/web/session', { url: page })).session_id as string;
  const close = (id: string) => fetch(`${relay.url}/v1/web/session/${id}`, { method: 'DELETE', headers });

  try {
    const browser = await relay.services.browsers.get();
    /** Plain Playwright; with `egress`, through the relay's egress proxy as a session's context is. */
    const raw = async (egress = false) => {
      const registration = egress ? relay.services.egress.register({ logger: relay.services.logger }) : undefined;
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        ...(registration ? { proxy: registration.proxy } : {}),
      });
      context.once('close', () => registration?.release());
      const tab = await context.newPage();
      await tab.goto(page);
      return context;
    };
    // Warm up every path (first context, JIT, page cache).
    for (let i = 0; i < 3; i++) {
      await close(await create());
      await (await raw()).close();
      await (await raw(true)).close();
    }
    const tandem: number[] = [];
    const playwright: number[] = [];
    const viaEgress: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      const id = await create();
      tandem.push(performance.now() - t);
      await close(id);
      t = performance.now();
      const context = await raw();
      playwright.push(performance.now() - t);
      await context.close();
      t = performance.now();
      const proxied = await raw(true);
      viaEgress.push(performance.now() - t);
      await proxied.close();
    }

    const memory = await idleMemory(page);
    const figures = {
      runs: RUNS,
      createMs: {
        tandem: { p50: percentile(tandem, 50), p95: percentile(tandem, 95) },
        playwright: { p50: percentile(playwright, 50), p95: percentile(playwright, 95) },
        playwrightViaEgress: { p50: percentile(viaEgress, 50), p95: percentile(viaEgress, 95) },
      },
      /** What the egress proxy (and the proxy credentials Playwright answers) adds to a context's first page load. */
      egressRatioP50: percentile(viaEgress, 50) / percentile(playwright, 50),
      egressRatioP95: percentile(viaEgress, 95) / percentile(playwright, 95),
      ratioP50: percentile(tandem, 50) / percentile(playwright, 50),
      ratioP95: percentile(tandem, 95) / percentile(playwright, 95),
      target: 1.5,
      memory,
    };
    printTable(`Session create, warm (${RUNS} runs each, interleaved, same Chromium, local page)`, [
      {
        path: 'Tandem POST /v1/web/session',
        p50_ms: round(figures.createMs.tandem.p50),
        p95_ms: round(figures.createMs.tandem.p95),
      },
      {
        path: 'Playwright newContext+newPage+goto',
        p50_ms: round(figures.createMs.playwright.p50),
        p95_ms: round(figures.createMs.playwright.p95),
      },
      {
        path: 'Playwright, same, through the egress proxy',
        p50_ms: round(figures.createMs.playwrightViaEgress.p50),
        p95_ms: round(figures.createMs.playwrightViaEgress.p95),
      },
      {
        path: `ratio (target <= 1.5): ${verdict(figures.ratioP50, figures.target)}`,
        p50_ms: round(figures.ratioP50, 2),
        p95_ms: round(figures.ratioP95, 2),
      },
      {
        path: 'egress proxy alone (through it / plain)',
        p50_ms: round(figures.egressRatioP50, 2),
        p95_ms: round(figures.egressRatioP95, 2),
      },
    ]);
    printTable(
      `Memory with ${IDLE_SESSIONS} idle sessions (relay in its own process, PSS, after ${IDLE_SETTLE_MS / 1000} s idle)`,
      [
        { process: 'relay (Node)', before_MiB: round(memory.relayMiB.before), after_MiB: round(memory.relayMiB.after) },
        {
          process: 'its Chromium (all processes)',
          before_MiB: round(memory.chromiumMiB.before),
          after_MiB: round(memory.chromiumMiB.after),
        },
        { process: 'per idle session (both)', before_MiB: '', after_MiB: round(memory.perSessionMiB, 2) },
      ],
    );
    saveResults('sessions', figures);
  } finally {
    await relay.close();
    await site.close();
  }
}

/** How long sessions sit before memory is read, so the page loads' transient allocations are gone. */
const IDLE_SETTLE_MS = 3000;

async function startRelayProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const main = fileURLToPath(new URL('../relay/src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      PORT: '0',
      TANDEM_DATA_DIR: dataDir,
      TANDEM_BOOTSTRAP_KEY: BENCH_KEY,
      TANDEM_MAX_SESSIONS: '100',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const url = /(http:\/\/[\w.:[\]-]+)\/v1\/web/.exec(out)?.[1];
    if (url) return { child, url };
  }
  throw new Error(`the relay exited before it listened:\n${out}`);
}

/** PSS of a relay process and of its Chromium, before and after IDLE_SESSIONS sessions sit idle. */
async function idleMemory(page: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-mem-'));
  const { child, url } = await startRelayProcess(dataDir);
  const headers = { X_SERVICE_API_KEY: BENCH_KEY, 'content-type': 'application/json' };
  const create = async () => {
    const res = await fetch(`${url}/v1/web/session`, { method: 'POST', headers, body: JSON.stringify({ url: page }) });
    if (!res.ok) throw new Error(`create: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { session_id: string }).session_id;
  };
  const close = (id: string) => fetch(`${url}/v1/web/session/${id}`, { method: 'DELETE', headers });
  const read = () => {
    const chromium = descendants(child.pid!).reduce((sum, pid) => sum + pssKiB(pid), 0);
    return { relay: pssKiB(child.pid!) / 1024, chromium: chromium / 1024 };
  };
  try {
    await close(await create()); // Chromium is launched on first use: count it in "before".
    await delay(IDLE_SETTLE_MS);
    const before = read();
    const ids: string[] = [];
    for (let i = 0; i < IDLE_SESSIONS; i++) ids.push(await create());
    await delay(IDLE_SETTLE_MS);
    const after = read();
    await Promise.all(ids.map(close));
    return {
      idleSessions: IDLE_SESSIONS,
      relayMiB: { before: before.relay, after: after.relay },
      chromiumMiB: { before: before.chromium, after: after.chromium },
      perSessionMiB: (after.relay - before.relay + after.chromium - before.chromium) / IDLE_SESSIONS,
    };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
