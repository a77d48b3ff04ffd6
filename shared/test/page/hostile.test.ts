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
    await expect(page.evaluate(() => String(Number('1')))).rejects.toThrow(/patched Number/);
    await expect(page.evaluate(() => String(new URL('/x', location.href)))).rejects.toThrow(/URL/);
    await expect(page.evaluate(() => document.body.querySelector('p')?.id)).rejects.toThrow(/patched Element/);
  });

  it('snapshots correctly after the page patched the builtins it uses', async () => {
    const page = await h.open('/hostile.html');
    const snap = await snapshot(page);
    const go = byName(snap, 'Run the search');
    expect(go.attributes['aria-label']).toBe('Run the search');
    expect(snap.text).toContain('- First result');
    expect(snap.text).toContain(`[${go.index}]<button aria-label="Run the search">Go</>`);
    expect(go.box.width).toBeGreaterThan(0);
    // tabindex and heading levels go through Number; the same-origin frame's offset through parseFloat.
    expect(byName(snap, 'Focusable box').tag).toBe('div');
    expect(snap.text).toContain('# Patched builtins');
    expect(byName(snap, 'Inside the frame').frame_depth).toBe(1);
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

  it('submits a form and reports where it goes, with URL, FormData and getAttribute replaced', async () => {
    const page = await h.open('/hostile.html');
    const snap = await snapshot(page);
    const typed = await act(page, {
      action: 'type',
      index: byName(snap, 'Product').index,
      text: 'kettle',
      submit: true,
    });
    expect(typed, typed.message).toMatchObject({ code: 'navigation', url: `${h.site.url}/echo?product=kettle` });
    await page.waitForURL('**/echo?product=kettle');
  });

  it('never echoes a password, with String.prototype.toLowerCase replaced', async () => {
    const page = await h.open('/hostile.html');
    const pw = byName(await snapshot(page), 'Account password');
    const typed = await act(page, { action: 'type', index: pw.index, text: 'hunter22' });
    expect(typed).toEqual({ code: 'ok', message: 'Typed 8 characters into the password field.' });
    expect(await page.inputValue('input[name=secret]')).toBe('hunter22');
  });

  it('waits a fixed time with window.Promise replaced', async () => {
    const page = await h.open('/hostile.html');
    expect(await act(page, { action: 'wait', ms: 20 })).toEqual({ code: 'ok', message: 'Waited 20 ms.' });
  });
});
