import { type FixtureSite, launchTestBrowser, startFixtureSite } from '@tandem/e2e/fixtures';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bundlePageRuntime } from '../../scripts/page-runtime-bundle.mjs';
import type { ActionInput, ActionResult } from '../../src/actions/index';
import type { ElementBoxResult, Snapshot, SnapshotElement, SnapshotOptions } from '../../src/page/index';

/** One Chromium, one fixture site and a fresh runtime bundle, shared by the tests of one file. */
export interface Harness {
  browser: Browser;
  site: FixtureSite;
  source: string;
  /** A new context (viewport 1000×700) with the runtime injected into every frame, on `path`. */
  open(path: string, options?: { inject?: 'init' | 'none' }): Promise<Page>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const [browser, site, source] = await Promise.all([launchTestBrowser(), startFixtureSite(), bundlePageRuntime()]);
  const contexts: BrowserContext[] = [];
  return {
    browser,
    site,
    source,
    async open(path, options = {}) {
      const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
      contexts.push(context);
      if (options.inject !== 'none') await context.addInitScript({ content: source });
      const page = await context.newPage();
      await page.goto(site.url + path);
      return page;
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      await site.close();
    },
  };
}

type RuntimeWindow = Window & {
  __tandem: {
    snapshot(o?: Partial<SnapshotOptions>): Snapshot;
    act(a: ActionInput): Promise<ActionResult>;
    elementBox(i: number, o?: { scroll_into_view?: boolean }): ElementBoxResult;
  };
};

export function snapshot(page: Page, options: Partial<SnapshotOptions> = {}): Promise<Snapshot> {
  return page.evaluate((o) => (window as unknown as RuntimeWindow).__tandem.snapshot(o), options);
}

export function act(page: Page, action: ActionInput): Promise<ActionResult> {
  return page.evaluate((a) => (window as unknown as RuntimeWindow).__tandem.act(a), action);
}

export function elementBox(page: Page, index: number): Promise<ElementBoxResult> {
  return page.evaluate((i) => (window as unknown as RuntimeWindow).__tandem.elementBox(i), index);
}

/** The indexed element whose name (or text) is exactly `name`; throws with the snapshot text if absent. */
export function byName(snap: Snapshot, name: string): SnapshotElement {
  const found = snap.elements.find((e) => e.name === name || e.text === name);
  if (!found) throw new Error(`no element named "${name}" in:\n${snap.text}`);
  return found;
}

export function hasName(snap: Snapshot, name: string): boolean {
  return snap.elements.some((e) => e.name === name || e.text === name);
}
