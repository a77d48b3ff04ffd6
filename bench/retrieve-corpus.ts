/**
 * Retrieve on a corpus of real article pages (Readability's test-page format, given by path in
 * TANDEM_BENCH_ARTICLES; nothing is downloaded): the time of one ludicrous retrieve with fields on a
 * new session against Playwright newContext + goto + content() of the same page, page by page,
 * interleaved on the same Chromium. The pages are served as `npm run eval -- --articles` serves them.
 */
import { findArticleCases, serveArticles } from '../eval/articles';
import { startBenchRelay } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

/** Target: retrieve at most 1.3× Playwright goto + content() on the same pages (total time). */
const RATIO_TARGET = 1.3;
const NAVIGATION_TIMEOUT_MS = 120_000;

export async function benchRetrieveCorpus(dir: string): Promise<void> {
  const cases = findArticleCases(dir);
  const server = await serveArticles(cases);
  const relay = await startBenchRelay({ TANDEM_NAVIGATION_TIMEOUT_MS: NAVIGATION_TIMEOUT_MS });
  const pageUrl = (name: string) => `${server.origin}/a/${encodeURIComponent(name)}/`;
  try {
    const browser = await relay.services.browsers.get();
    const retrieve = async (url: string) => {
      const res = (await relay.post('/v1/web/retrieve', {
        cmd: 'the article: its title, author, publication date and site name',
        url,
        mode: 'ludicrous',
        fields: ['title', 'author', 'published', 'site_name'],
        max_items: 1,
      })) as { session_id: string };
      await fetch(`${relay.url}/v1/web/session/${res.session_id}`, { method: 'DELETE', headers: relay.headers });
    };
    const raw = async (url: string) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const tab = await context.newPage();
        await tab.goto(url, { timeout: NAVIGATION_TIMEOUT_MS });
        await tab.content();
      } finally {
        await context.close();
      }
    };
    const timed = async (run: () => Promise<void>) => {
      const t = performance.now();
      await run();
      return performance.now() - t;
    };
    // Warm both paths (Chromium's caches, the relay's first session) on the first page.
    const first = pageUrl(cases[0]?.name ?? '');
    await retrieve(first);
    await raw(first);

    const tandem: number[] = [];
    const playwright: number[] = [];
    const ratios: number[] = [];
    for (const c of cases) {
      // Alternate which side goes first so neither always finds a warmer cache.
      const url = pageUrl(c.name);
      const order = tandem.length % 2 === 0;
      const a = order ? await timed(() => retrieve(url)) : 0;
      const b = await timed(() => raw(url));
      const t = order ? a : await timed(() => retrieve(url));
      tandem.push(t);
      playwright.push(b);
      ratios.push(t / b);
    }
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
    const ratio = sum(tandem) / sum(playwright);
    const verdict = ratio <= RATIO_TARGET ? 'PASS' : 'FAIL';
    printTable(`Retrieve (ludicrous, fields) on ${cases.length} corpus pages vs Playwright goto+content()`, [
      {
        path: 'Tandem POST /v1/web/retrieve (new session)',
        mean_ms: round(sum(tandem) / tandem.length),
        p50_ms: round(percentile(tandem, 50)),
        p95_ms: round(percentile(tandem, 95)),
        verdict: '',
      },
      {
        path: 'Playwright newContext+newPage+goto+content',
        mean_ms: round(sum(playwright) / playwright.length),
        p50_ms: round(percentile(playwright, 50)),
        p95_ms: round(percentile(playwright, 95)),
        verdict: '',
      },
      {
        path: `ratio of totals (target <= ${RATIO_TARGET}); per-page p50/p95`,
        mean_ms: round(ratio, 2),
        p50_ms: round(percentile(ratios, 50), 2),
        p95_ms: round(percentile(ratios, 95), 2),
        verdict,
      },
    ]);
    saveResults('retrieveCorpus', {
      pages: cases.length,
      tandemMs: { mean: sum(tandem) / tandem.length, p50: percentile(tandem, 50), p95: percentile(tandem, 95) },
      playwrightMs: {
        mean: sum(playwright) / playwright.length,
        p50: percentile(playwright, 50),
        p95: percentile(playwright, 95),
      },
      ratio,
      perPageRatio: { p50: percentile(ratios, 50), p95: percentile(ratios, 95) },
      target: RATIO_TARGET,
      verdict,
    });
  } finally {
    await relay.close();
    await server.close();
  }
}
