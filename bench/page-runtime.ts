/**
 * The page runtime against Playwright's own ariaSnapshot on the same pages (size and time, full page),
 * whether every interactive element got an index, and a click through the driver (act + settle)
 * against locator.click() on the same element. Each target is judged PASS or FAIL.
 */
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { BrowserHost } from '@tandem/relay';
import { PlaywrightDriver } from '@tandem/relay/driver';
import { pino } from 'pino';
import { ARIA_INTERACTIVE_ROLES, elementCount, fixturePages, measureCoverage, probePage } from './page-coverage';
import { percentile, printTable, round, saveResults } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const CLICK_RUNS = Number(process.env.BENCH_CLICK_RUNS ?? 30);
/** Targets: the snapshot text at most 0.8× the aria snapshot, no slower than it, a click at most 1.5× locator.click(). */
const TARGETS = { size: 0.8, time: 1.0, click: 1.5 };
/** The large generated page and the element count it must have. */
const LARGE_PAGE = { path: '/generated?n=5000', elements: 5000 };
/** Rough tokens of a text, for comparing what each snapshot costs the model (~4 characters per token). */
const tokens = (text: string) => Math.round(text.length / 4);
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

/** A type, not an interface: printTable takes rows as string-indexed records. */
type SnapshotRow = {
  page: string;
  tandem_chars: number;
  aria_chars: number;
  tandem_tokens: number;
  aria_tokens: number;
  size_ratio: number;
  size: string;
  tandem_ms: number;
  aria_ms: number;
  time_ratio: number;
  time: string;
  indexed: number;
  aria_interactive: number;
  interactive: number | 'n/a';
  unindexed: number | 'n/a';
  missed: string;
};

export async function benchPageRuntime(): Promise<void> {
  const logger = pino({ level: 'silent' });
  const host = new BrowserHost({ headless: true, logger });
  const site = await startFixtureSite();
  const pages = [...fixturePages(), LARGE_PAGE.path];
  const driver = await PlaywrightDriver.open(host, {
    viewport: { width: 1280, height: 800 },
    navigationTimeoutMs: 30_000,
    logger,
  });
  const browser = await host.get();
  const rawContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const raw = await rawContext.newPage();
  const probeContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const probe = await probePage(probeContext);
  try {
    const rows: SnapshotRow[] = [];
    for (const path of pages) {
      await driver.navigate(`${site.url}${path}`);
      await raw.goto(`${site.url}${path}`);
      if (path === LARGE_PAGE.path) {
        const count = await elementCount(raw);
        if (count !== LARGE_PAGE.elements) throw new Error(`${path} has ${count} elements, not ${LARGE_PAGE.elements}`);
      }
      const ours: number[] = [];
      const theirs: number[] = [];
      let snapshot = await driver.snapshot({ full_page: true, max_chars: 1_000_000 });
      let aria = await raw.locator('body').ariaSnapshot();
      for (let i = 0; i < RUNS; i++) {
        let t = performance.now();
        snapshot = await driver.snapshot({ full_page: true, max_chars: 1_000_000 });
        ours.push(performance.now() - t);
        t = performance.now();
        aria = await raw.locator('body').ariaSnapshot();
        theirs.push(performance.now() - t);
      }
      const ariaInteractive = aria.match(ARIA_INTERACTIVE_ROLES)?.length ?? 0;
      await probe.goto(`${site.url}${path}`);
      const coverage = await measureCoverage(probe);
      const sizeRatio = snapshot.text.length / aria.length;
      const timeRatio = percentile(ours, 50) / percentile(theirs, 50);
      rows.push({
        page: path,
        tandem_chars: snapshot.text.length,
        aria_chars: aria.length,
        tandem_tokens: tokens(snapshot.text),
        aria_tokens: tokens(aria),
        size_ratio: round(sizeRatio, 2),
        size: verdict(sizeRatio <= TARGETS.size),
        tandem_ms: round(percentile(ours, 50)),
        aria_ms: round(percentile(theirs, 50)),
        time_ratio: round(timeRatio, 2),
        time: verdict(timeRatio <= TARGETS.time),
        indexed: snapshot.elements.length,
        aria_interactive: ariaInteractive,
        interactive: coverage?.interactive ?? 'n/a',
        unindexed: coverage?.unindexed ?? 'n/a',
        missed: coverage ? coverage.examples.join('; ') : 'the page breaks the probe',
      });
    }
    printTable(
      `Snapshot vs Playwright ariaSnapshot (full page, median of ${RUNS}; targets: size <= ${TARGETS.size}x, time <= ${TARGETS.time}x, unindexed = 0)`,
      rows,
    );
    const sum = (key: 'tandem_chars' | 'aria_chars') => rows.reduce((n, r) => n + r[key], 0);
    const summary = {
      pages: rows.length,
      size_pass: rows.filter((r) => r.size === 'PASS').length,
      time_pass: rows.filter((r) => r.time === 'PASS').length,
      total_size_ratio: round(sum('tandem_chars') / sum('aria_chars'), 2),
      median_time_ratio: round(
        percentile(
          rows.map((r) => r.time_ratio),
          50,
        ),
        2,
      ),
      unindexed: rows.reduce((n, r) => n + (typeof r.unindexed === 'number' ? r.unindexed : 0), 0),
    };
    printTable('Snapshot targets over all pages', [summary]);

    await driver.navigate(`${site.url}/events.html`);
    await raw.goto(`${site.url}/events.html`);
    const index = (await driver.snapshot()).elements.find((e) => e.name === 'Check input')?.index ?? 1;
    const viaDriver: number[] = [];
    const viaLocator: number[] = [];
    for (let i = 0; i < CLICK_RUNS + 3; i++) {
      let t = performance.now();
      const result = await driver.act({ action: 'click', index, double: false });
      const driverMs = performance.now() - t;
      if (result.code !== 'ok') throw new Error(`click failed: ${result.message}`);
      t = performance.now();
      await raw.locator('#trusted').click();
      const locatorMs = performance.now() - t;
      if (i >= 3) {
        viaDriver.push(driverMs);
        viaLocator.push(locatorMs);
      }
    }
    const click = {
      driverP50: percentile(viaDriver, 50),
      locatorP50: percentile(viaLocator, 50),
      ratio: percentile(viaDriver, 50) / percentile(viaLocator, 50),
      target: TARGETS.click,
      verdict: '',
    };
    click.verdict = verdict(click.ratio <= TARGETS.click);
    printTable(`Click (median of ${CLICK_RUNS}, interleaved, same Chromium)`, [
      { path: 'driver act(click) + settle', p50_ms: round(click.driverP50) },
      { path: "Playwright locator('#trusted').click()", p50_ms: round(click.locatorP50) },
      { path: `ratio (target <= ${TARGETS.click}): ${click.verdict}`, p50_ms: round(click.ratio, 2) },
    ]);
    saveResults('pageRuntime', { runs: RUNS, targets: TARGETS, snapshots: rows, summary, click });
  } finally {
    await driver.close();
    await rawContext.close();
    await probeContext.close();
    await host.close();
    await site.close();
  }
}
