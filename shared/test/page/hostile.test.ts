import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionInput, ActionResult } from '../../src/actions/index';
import type { Snapshot } from '../../src/page/index';
import { byName, type Harness, startHarness } from './harness';

type JsonRuntime = { __tandem: { snapshotJson(): string; actJson(a: ActionInput): Promise<string> } };

// Playwright's return-value serializer itself breaks on this page, so results cross as JSON strings.
async function snapshot(page: Page): Promise<Snapshot> {
  return JSON.parse(await page.evaluate(() => (window as unknown as JsonRuntime).__tandem.snapshotJson()));
}
async function act(page: Page, action: ActionInput): Promise<ActionResult> {
  return JSON.parse(await page.evaluate((a) => (window as unknown as JsonRuntime).__tandem.actJson(a), action));
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

// hostile.html replaces Array/String/Math/Map methods, setTimeout, getComputedStyle, getAttribute,
// getBoundingClientRect, elementFromPoint, dispatchEvent, focus and JSON.stringify once its own code has run.
describe('the runtime distrusts the page', () => {
  it('the fixture really breaks naive code', async () => {
    const page = await h.open('/hostile.html');
    await expect(page.evaluate(() => [1, 2].map((x) => x))).rejects.toThrow(/patched Array.prototype.map/);
    expect(await page.evaluate(() => document.body.getAttribute('lang'))).toBe('pwned');
  });

  it('snapshots correctly after the page patched the builtins it uses', async () => {
    const page = await h.open('/hostile.html');
    const snap = await snapshot(page);
    const go = byName(snap, 'Run the search');
    expect(go.attributes['aria-label']).toBe('Run the search');
    expect(snap.text).toContain('- First result');
    expect(snap.text).toContain(`[${go.index}]<button aria-label="Run the search">Go</button>`);
    expect(go.box.width).toBeGreaterThan(0);
  });

  it('clicks, types and waits with captured event constructors, dispatchEvent and timers', async () => {
    const page = await h.open('/hostile.html');
    const snap = await snapshot(page);
    expect((await act(page, { action: 'click', index: byName(snap, 'Run the search').index })).code).toBe('ok');
    expect(await page.textContent('#hostile-result')).toBe('Clicked');
    const typed = await act(page, { action: 'type', index: byName(snap, 'Search').index, text: 'kettle' });
    expect(typed).toMatchObject({ code: 'ok', value: 'kettle' });
    const waited = await act(page, { action: 'wait', until_text: 'not on this page', ms: 200 });
    expect(waited.code).toBe('timeout');
  });
});
