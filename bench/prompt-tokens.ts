/**
 * Prompt tokens per step: the request the planner sends for the first step on each page (system
 * prompt, decision tool, step message with the viewport snapshot), estimated as the relay estimates
 * it; the page's text as Tandem sends it against Playwright's `ariaSnapshot()` of the same page; and
 * how many steps fit 8k and 4k contexts after the prompt is trimmed to them. Fixture pages always;
 * Readability's article pages when a corpus folder is given (TANDEM_BENCH_ARTICLES or
 * `npm run bench -- promptTokens --articles DIR`), skipped otherwise.
 */
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { BrowserHost } from '@tandem/relay';
import { PlaywrightDriver } from '@tandem/relay/driver';
import { contextBudget, estimateRequestTokens, estimateTokens, IMAGE_TOKENS, stepRequest } from '@tandem/relay/prompt';
import type { Snapshot } from '@tandem/shared';
import { pino } from 'pino';
import { findArticleCases, serveArticles } from '../eval/articles';
import { ARIA_INTERACTIVE_ROLES, fixturePages } from './page-coverage';
import { printTable, round, saveResults } from './stats';

/** Targets: the page text at most 0.6x the aria snapshot (at equal coverage); every step fits 8k and 4k. */
const TARGETS = { ratio: 0.6, fit: 1 };
const CONTEXTS = [8192, 4096];
/** TANDEM_MODEL_MAX_TOKENS's default: the reply's reserve comes out of each context. */
const MAX_TOKENS = 4096;

type Row = {
  page: string;
  step_tokens: number;
  page_tokens: number;
  aria_tokens: number;
  full_page_tokens: number;
  ratio: number;
  indexed: number;
  aria_interactive: number;
  fits_8k: string;
  fits_4k: string;
  snapshot_ms: number;
  vision_ms: number;
  vision_kb: number;
};

function planInput(snapshot: Snapshot, url: string) {
  return {
    task: 'Find the most relevant link on this page and open it, then report what it says.',
    step: 1,
    maxSteps: 100,
    snapshot,
    url,
    tabs: [{ index: 0, url, title: snapshot.title, active: true }],
    history: [],
    skills: [],
    mode: 'fast' as const,
    nudges: [],
  };
}

/** The step's request fits `context` once trimmed: its estimate within the prompt's room. */
function fits(snapshot: Snapshot, url: string, context: number): boolean {
  const { promptTokens } = contextBudget(context, MAX_TOKENS);
  const request = stepRequest(planInput(snapshot, url), 'tools', promptTokens);
  return estimateRequestTokens(request.body) <= (promptTokens ?? 0);
}

function articlesDir(): string | undefined {
  const flag = process.argv.indexOf('--articles');
  return (flag >= 0 ? process.argv[flag + 1] : undefined) ?? process.env.TANDEM_BENCH_ARTICLES;
}

export async function benchPromptTokens(): Promise<void> {
  const logger = pino({ level: 'silent' });
  const host = new BrowserHost({ headless: true, logger });
  const site = await startFixtureSite();
  const urls = [
    ...fixturePages().map((path) => ({ group: 'fixtures', name: path.slice(1), url: `${site.url}${path}` })),
    { group: 'fixtures', name: 'generated?n=5000', url: `${site.url}/generated?n=5000` },
  ];
  const dir = articlesDir();
  const articles = dir ? findArticleCases(dir) : [];
  const corpus = dir ? await serveArticles(articles) : undefined;
  if (corpus) {
    for (const c of articles)
      urls.push({ group: 'readability', name: c.name, url: `${corpus.origin}/a/${encodeURIComponent(c.name)}/` });
  } else {
    process.stdout.write(
      '\npromptTokens: Readability pages skipped (set TANDEM_BENCH_ARTICLES or pass --articles <Readability test-pages dir>)\n',
    );
  }
  const driver = await PlaywrightDriver.open(host, {
    viewport: { width: 1280, height: 800 },
    navigationTimeoutMs: 60_000,
    logger,
  });
  const browser = await host.get();
  const rawContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const raw = await rawContext.newPage();
  const groups: Record<string, Row[]> = {};
  try {
    for (const { group, name, url } of urls) {
      try {
        await driver.navigate(url);
        await raw.goto(url, { timeout: 60_000 });
      } catch {
        continue; // a page that does not load here (an article's dead resources) says nothing about prompts
      }
      // What the step loop sends (the viewport), and the whole page for a comparison at equal coverage.
      const snapshotStarted = performance.now();
      const snapshot = await driver.snapshot();
      const snapshotMs = performance.now() - snapshotStarted;
      // Vision's extra work per step: the set-of-marks capture the step loop takes when it is on.
      const visionStarted = performance.now();
      const marks = snapshot.elements.filter((e) => e.in_viewport).map(({ index, box }) => ({ index, box }));
      const image = await driver.screenshot({ marks, jpegQuality: 70 });
      const visionMs = performance.now() - visionStarted;
      const full = await driver.snapshot({ full_page: true, max_chars: 1_000_000 });
      const aria = await raw.locator('body').ariaSnapshot();
      const step = stepRequest(planInput(snapshot, url), 'tools', undefined);
      const fullTokens = estimateTokens(full.text);
      const ariaTokens = estimateTokens(aria);
      const rows = groups[group] ?? [];
      groups[group] = rows;
      rows.push({
        page: name.length > 40 ? `${name.slice(0, 39)}…` : name,
        step_tokens: estimateRequestTokens(step.body),
        page_tokens: estimateTokens(snapshot.text),
        aria_tokens: ariaTokens,
        full_page_tokens: fullTokens,
        ratio: round(fullTokens / Math.max(1, ariaTokens), 2),
        indexed: full.elements.length,
        aria_interactive: aria.match(ARIA_INTERACTIVE_ROLES)?.length ?? 0,
        fits_8k: fits(snapshot, url, 8192) ? 'yes' : 'NO',
        fits_4k: fits(snapshot, url, 4096) ? 'yes' : 'NO',
        snapshot_ms: round(snapshotMs),
        vision_ms: round(visionMs),
        vision_kb: round(image.length / 1024, 1),
      });
    }
    const summaries = Object.entries(groups).map(([group, rows]) => {
      const sum = (key: 'full_page_tokens' | 'aria_tokens' | 'step_tokens' | 'indexed' | 'aria_interactive') =>
        rows.reduce((n, r) => n + r[key], 0);
      const share = (key: 'fits_8k' | 'fits_4k') => rows.filter((r) => r[key] === 'yes').length / rows.length;
      const ratio = sum('full_page_tokens') / Math.max(1, sum('aria_tokens'));
      const coverage = sum('indexed') / Math.max(1, sum('aria_interactive'));
      return {
        group,
        pages: rows.length,
        mean_step_tokens: round(sum('step_tokens') / rows.length),
        max_step_tokens: Math.max(...rows.map((r) => r.step_tokens)),
        text_ratio_vs_aria: round(ratio, 2),
        ratio: ratio <= TARGETS.ratio ? 'PASS' : 'FAIL',
        indexed_per_aria_interactive: round(coverage, 2),
        fit_8k: `${round(share('fits_8k') * 100, 1)}%`,
        fit_4k: `${round(share('fits_4k') * 100, 1)}%`,
        fit: share('fits_8k') >= TARGETS.fit && share('fits_4k') >= TARGETS.fit ? 'PASS' : 'FAIL',
        // TANDEM_MODEL_VISION=on: the capture's time next to the snapshot's, its size, its counted tokens.
        snapshot_ms_mean: round(rows.reduce((n, r) => n + r.snapshot_ms, 0) / rows.length),
        vision_ms_mean: round(rows.reduce((n, r) => n + r.vision_ms, 0) / rows.length),
        vision_kb_mean: round(rows.reduce((n, r) => n + r.vision_kb, 0) / rows.length, 1),
        vision_tokens: IMAGE_TOKENS,
      };
    });
    for (const [group, rows] of Object.entries(groups)) {
      printTable(`Prompt tokens per step (${group}; estimate at 3.5 characters a token)`, rows);
    }
    printTable(
      `Prompt tokens: targets page text <= ${TARGETS.ratio}x ariaSnapshot (full page both), 100% of steps fit ${CONTEXTS.join(' and ')} after trimming`,
      summaries,
    );
    saveResults('promptTokens', { summaries, pages: groups });
  } finally {
    await rawContext.close();
    await driver.close();
    await host.close();
    await site.close();
    await corpus?.close();
  }
}
