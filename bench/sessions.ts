/**
 * Session create through the HTTP API against raw Playwright (newContext + newPage + goto) on the same
 * page and the same Chromium, interleaved in one run; then the memory of 20 idle sessions.
 */
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { startBenchRelay } from './relay';
import { percentile, printTable, pssKiB, round, saveResults } from './stats';

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
    const raw = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(page);
      return context;
    };
    // Warm up both paths (first context, JIT, page cache).
    for (let i = 0; i < 3; i++) {
      await close(await create());
      await (await raw()).close();
    }
    const tandem: number[] = [];
    const playwright: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      const id = await create();
      tandem.push(performance.now() - t);
      await close(id);
      t = performance.now();
      const context = await raw();
      playwright.push(performance.now() - t);
      await context.close();
    }

    const chromiumKiB = async () => {
      const cdp = await browser.newBrowserCDPSession();
      const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { id: number }[] };
      await cdp.detach();
      return processInfo.reduce((sum, p) => sum + pssKiB(p.id), 0);
    };
    global.gc?.();
    const relayBefore = pssKiB(process.pid);
    const chromiumBefore = await chromiumKiB();
    const ids = [];
    for (let i = 0; i < IDLE_SESSIONS; i++) ids.push(await create());
    global.gc?.();
    const relayAfter = pssKiB(process.pid);
    const chromiumAfter = await chromiumKiB();
    await Promise.all(ids.map(close));

    const figures = {
      runs: RUNS,
      createMs: {
        tandem: { p50: percentile(tandem, 50), p95: percentile(tandem, 95) },
        playwright: { p50: percentile(playwright, 50), p95: percentile(playwright, 95) },
      },
      ratioP50: percentile(tandem, 50) / percentile(playwright, 50),
      ratioP95: percentile(tandem, 95) / percentile(playwright, 95),
      target: 1.5,
      memory: {
        idleSessions: IDLE_SESSIONS,
        relayPssMiB: { before: relayBefore / 1024, after: relayAfter / 1024 },
        chromiumPssMiB: { before: chromiumBefore / 1024, after: chromiumAfter / 1024 },
        perSessionMiB: (relayAfter - relayBefore + chromiumAfter - chromiumBefore) / 1024 / IDLE_SESSIONS,
      },
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
      { path: 'ratio (target <= 1.5)', p50_ms: round(figures.ratioP50, 2), p95_ms: round(figures.ratioP95, 2) },
    ]);
    printTable(`Memory with ${IDLE_SESSIONS} idle sessions`, [
      { process: 'relay (Node, PSS)', before_MiB: round(relayBefore / 1024), after_MiB: round(relayAfter / 1024) },
      {
        process: 'Chromium (all processes, PSS)',
        before_MiB: round(chromiumBefore / 1024),
        after_MiB: round(chromiumAfter / 1024),
      },
      { process: 'per idle session (both)', before_MiB: '', after_MiB: round(figures.memory.perSessionMiB) },
    ]);
    saveResults('sessions', figures);
  } finally {
    await relay.close();
    await site.close();
  }
}
