/**
 * Agent overhead per step with a scripted model (total step time minus time spent in the model server)
 * against raw Playwright doing the same action on the same page.
 */
import { startFixtureSite, startModelServer } from '@tandem/e2e/fixtures';
import { startBenchRelay, timePlanner } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

export async function benchAgent(): Promise<void> {
  const [site, model] = await Promise.all([startFixtureSite(), startModelServer({ models: ['bench'] })]);
  const relay = await startBenchRelay({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'bench',
    TANDEM_MODEL_FAST: 'bench',
    TANDEM_MODEL_OUTPUT: 'prompt',
  });
  const post = relay.post;
  // Model time = the planner call as the relay sees it (HTTP to the model server and back, parsing).
  let lastPlanMs = 0;
  timePlanner(relay, (ms) => {
    lastPlanMs = ms;
  });
  const browser = await relay.services.browsers.get();
  const rawContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const raw = await rawContext.newPage();
  try {
    const session = (await post('/v1/web/session', { url: `${site.url}/events.html` })).session_id as string;
    await raw.goto(`${site.url}/events.html`);
    // The model answers at once with a click on "Check input", found in the prompt's snapshot.
    const reply = {
      kind: 'json' as const,
      value: { memory: '', next_goal: 'click', actions: [{ action: 'click', index: 1 }] },
    };
    const steps: number[] = [];
    const modelMs: number[] = [];
    const playwright: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      model.script(reply);
      const t = performance.now();
      await post(`/v1/web/session/${session}`, { cmd: 'click Check input', stream: false });
      const total = performance.now() - t;
      const inModel = lastPlanMs;
      const p = performance.now();
      await raw.locator('#trusted').click();
      const rawMs = performance.now() - p;
      if (i >= 3) {
        steps.push(total);
        modelMs.push(inModel);
        playwright.push(rawMs);
      }
    }
    const overhead = steps.map((s, i) => s - (modelMs[i] ?? 0));
    const figures = {
      runs: RUNS,
      stepMsP50: percentile(steps, 50),
      modelMsP50: percentile(modelMs, 50),
      overheadMsP50: percentile(overhead, 50),
      playwrightClickMsP50: percentile(playwright, 50),
      ratio: percentile(overhead, 50) / percentile(playwright, 50),
      target: 2,
    };
    printTable(`Agent step overhead (scripted model, median of ${RUNS}, same page and action)`, [
      { path: 'Tandem POST /v1/web/session/{id} (step, total)', p50_ms: round(figures.stepMsP50) },
      { path: 'model time (planner call, scripted server)', p50_ms: round(figures.modelMsP50) },
      { path: 'Tandem step minus model time', p50_ms: round(figures.overheadMsP50) },
      { path: "Playwright locator('#trusted').click()", p50_ms: round(figures.playwrightClickMsP50) },
      { path: 'ratio (target <= 2)', p50_ms: round(figures.ratio, 2) },
    ]);
    saveResults('agent', figures);
  } finally {
    await rawContext.close();
    await relay.close();
    await Promise.all([site.close(), model.close()]);
  }
}
