/**
 * Agent overhead per step with a scripted model (total step time minus the time the model server took
 * to answer) against raw Playwright doing the same action on the same page. Target: at most 2×.
 */
import { type RecordedRequest, startFixtureSite, startModelServer } from '@tandem/e2e/fixtures';
import { BENCH_KEY, startBenchRelay } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;
const TARGET_RATIO = 2;

/** The index the prompt's page snapshot gives the "Check input" button, as a model would read it. */
function checkInputIndex(request: RecordedRequest): number {
  const prompt = (request.body?.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const snapshot = prompt.slice(prompt.lastIndexOf('<page_snapshot>'));
  const match = /\[(\d+)\]<button[^>]*>Check input</.exec(snapshot);
  if (!match) throw new Error(`bench agent: no "Check input" button in the prompt's snapshot:\n${snapshot}`);
  return Number(match[1]);
}

export async function benchAgent(): Promise<void> {
  const [site, model] = await Promise.all([startFixtureSite(), startModelServer({ models: ['bench'] })]);
  const relay = await startBenchRelay({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'bench',
    TANDEM_MODEL_FAST: 'bench',
    TANDEM_MODEL_OUTPUT: 'prompt',
  });
  const post = relay.post;
  const browser = await relay.services.browsers.get();
  const rawContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const raw = await rawContext.newPage();
  try {
    const session = (await post('/v1/web/session', { url: `${site.url}/events.html` })).session_id as string;
    await raw.goto(`${site.url}/events.html`);
    const steps: number[] = [];
    const modelMs: number[] = [];
    const playwright: number[] = [];
    for (let i = 0; i < RUNS + WARMUP; i++) {
      // The model answers at once with a click on the button, found in the snapshot it was sent.
      let index = -1;
      model.script((request) => {
        index = checkInputIndex(request);
        return { kind: 'json', value: { memory: '', next_goal: 'click', actions: [{ action: 'click', index }] } };
      });
      const t = performance.now();
      const response = await post(`/v1/web/session/${session}`, { cmd: 'click Check input', stream: false });
      const total = performance.now() - t;
      const message = String(response.message);
      if (!message.includes(`Clicked [${index}]`)) {
        throw new Error(`bench agent: the step did not click "Check input"; it answered: ${message}`);
      }
      // Model time as the model server saw it: request received → response sent.
      const request = model.requests.at(-1);
      if (request?.respondedAt === undefined) throw new Error('bench agent: the model server recorded no answer');
      const inModel = request.respondedAt - request.receivedAt;
      const p = performance.now();
      await raw.locator('#trusted').click();
      const rawMs = performance.now() - p;
      if (i >= WARMUP) {
        steps.push(total);
        modelMs.push(inModel);
        playwright.push(rawMs);
      }
    }
    // The clicks really landed: the page says so (read once, outside the timed steps).
    const accountId = (await relay.services.store.apiKeys.resolve(BENCH_KEY))?.accountId ?? '';
    const page = await relay.services.sessions.get(accountId, session).driver.snapshot();
    if (!page.text.includes('trusted click')) {
      throw new Error(`bench agent: the page does not show the click:\n${page.text}`);
    }
    const overhead = steps.map((s, i) => s - (modelMs[i] ?? 0));
    const ratio = percentile(overhead, 50) / percentile(playwright, 50);
    const pass = ratio <= TARGET_RATIO;
    const figures = {
      runs: RUNS,
      stepMsP50: percentile(steps, 50),
      modelMsP50: percentile(modelMs, 50),
      overheadMsP50: percentile(overhead, 50),
      playwrightClickMsP50: percentile(playwright, 50),
      ratio,
      target: TARGET_RATIO,
      pass,
    };
    printTable(`Agent step overhead (scripted model, median of ${RUNS}, same page and action)`, [
      { path: 'Tandem POST /v1/web/session/{id} (step, total)', p50_ms: round(figures.stepMsP50) },
      { path: 'model time (model server: request received → response sent)', p50_ms: round(figures.modelMsP50, 2) },
      { path: 'Tandem step minus model time', p50_ms: round(figures.overheadMsP50) },
      { path: "Playwright locator('#trusted').click()", p50_ms: round(figures.playwrightClickMsP50) },
      { path: `ratio (target <= ${TARGET_RATIO})`, p50_ms: `${round(ratio, 2)} ${pass ? 'PASS' : 'FAIL'}` },
    ]);
    saveResults('agent', figures);
  } finally {
    await rawContext.close();
    await relay.close();
    await Promise.all([site.close(), model.close()]);
  }
}
