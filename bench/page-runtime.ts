/**
 * The page runtime against Playwright's own ariaSnapshot on the same pages (size and time, full page),
 * and a click through the driver (act + settle) against locator.click() on the same element.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { BrowserHost } from '@tandem/relay';
import { PlaywrightDriver } from '@tandem/relay/driver';
import { pino } from 'pino';
import { percentile, printTable, round, saveResults } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const CLICK_RUNS = Number(process.env.BENCH_CLICK_RUNS ?? 30);
const INTERACTIVE_ROLES =
  /^\s*- (button|link|textbox|checkbox|radio|combobox|listbox|option|tab|menuitem|switch|slider|spinbutton|searchbox)\b/gm;

export async function benchPageRuntime(): Promise<void> {
  const logger = pino({ level: 'silent' });
  const host = new BrowserHost({ headless: true, logger });
  const site = await startFixtureSite();
  const siteDir = fileURLToPath(new URL('../e2e/fixtures/site/', import.meta.url));
  const pages = [
    ...readdirSync(siteDir)
      .filter((f) => f.endsWith('.html') && f !== 'frame-inner.html' && f !== 'popup-target.html')
      .map((f) => `/${f}`),
    '/generated?n=5000',
  ];
  const driver = await PlaywrightDriver.open(host, {
    viewport: { width: 1280, height: 800 },
    navigationTimeoutMs: 30_000,
    logger,
  });
  const browser = await host.get();
  const rawContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const raw = await rawContext.newPage();
  try {
    const rows = [];
    for (const path of pages) {
      await driver.navigate(`${site.url}${path}`);
      await raw.goto(`${site.url}${path}`);
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
      const ariaInteractive = aria.match(INTERACTIVE_ROLES)?.length ?? 0;
      rows.push({
        page: path,
        tandem_chars: snapshot.text.length,
        aria_chars: aria.length,
        size_ratio: round(snapshot.text.length / aria.length, 2),
        tandem_tokens: Math.round(snapshot.text.length / 4),
        tandem_ms: round(percentile(ours, 50)),
        aria_ms: round(percentile(theirs, 50)),
        time_ratio: round(percentile(ours, 50) / percentile(theirs, 50), 2),
        indexed: snapshot.elements.length,
        aria_interactive: ariaInteractive,
      });
    }
    printTable(
      `Snapshot vs Playwright ariaSnapshot (full page, median of ${RUNS}; targets: size <= 0.8x, time <= 1.0x)`,
      rows,
    );

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
      target: 1.5,
    };
    printTable(`Click (median of ${CLICK_RUNS}, interleaved, same Chromium)`, [
      { path: 'driver act(click) + settle', p50_ms: round(click.driverP50) },
      { path: "Playwright locator('#trusted').click()", p50_ms: round(click.locatorP50) },
      { path: 'ratio (target <= 1.5)', p50_ms: round(click.ratio, 2) },
    ]);
    saveResults('pageRuntime', { runs: RUNS, snapshots: rows, click });
  } finally {
    await driver.close();
    await rawContext.close();
    await host.close();
    await site.close();
  }
}
