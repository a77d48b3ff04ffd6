import type {
  ActionResult,
  ContentOptions,
  FieldValue,
  FormState,
  Mark,
  PageContent,
  Snapshot,
  SnapshotOptions,
} from '@tandem/shared';
import { PAGE_RUNTIME_SOURCE } from '@tandem/shared/page-runtime';
import type { BrowserContext, Page } from 'playwright-core';

export { PAGE_RUNTIME_SOURCE };

interface RuntimeWindow {
  __tandem?: {
    snapshotJson(options: Partial<SnapshotOptions>): string;
    actJson(action: unknown): Promise<string>;
    contentJson(options: Partial<ContentOptions>): string;
    scrollToBottomJson(maxMs: number): Promise<string>;
    showMarksJson(marks: string): Promise<void>;
    hideMarks(): Promise<void>;
    readFormsJson(): string;
    writeFormsJson(fields: string): string;
    elementBox(
      index: number,
      options?: { scroll_into_view?: boolean },
    ): {
      code: string;
      message: string;
      center?: { x: number; y: number };
    };
  };
}

/** Where to click an element with trusted input, or why it cannot be. */
export type ElementPoint = { code: 'ok'; x: number; y: number } | ActionResult;

/** Installs the runtime in every page and frame of the context, before page scripts run (so it can trust its builtins). */
export async function installPageRuntime(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: PAGE_RUNTIME_SOURCE });
}

/** Pages that existed before the init script (about:blank, some error pages) get the runtime now. */
async function ensureRuntime(page: Page): Promise<void> {
  const present = await page.evaluate(() => typeof (globalThis as unknown as RuntimeWindow).__tandem === 'object');
  if (!present) await page.evaluate(PAGE_RUNTIME_SOURCE);
}

/**
 * Calls the runtime, re-injecting it once if the document has none. Results cross as JSON strings made
 * with the runtime's own JSON, because a page that patches Array.prototype breaks Playwright's serializer.
 */
export async function runtimeSnapshot(page: Page, options: Partial<SnapshotOptions>): Promise<Snapshot> {
  await ensureRuntime(page);
  const json = await page.evaluate((o) => (globalThis as unknown as RuntimeWindow).__tandem!.snapshotJson(o), options);
  return JSON.parse(json) as Snapshot;
}

export async function runtimeAct(page: Page, action: unknown): Promise<ActionResult> {
  await ensureRuntime(page);
  const json = await page.evaluate((a) => (globalThis as unknown as RuntimeWindow).__tandem!.actJson(a), action);
  return JSON.parse(json) as ActionResult;
}

/** The element's uncovered point in viewport coordinates (scrolled into view first). */
export async function runtimeElementPoint(page: Page, index: number): Promise<ElementPoint> {
  await ensureRuntime(page);
  // A plain string crosses even when the page broke Playwright's object serializer.
  const encoded = await page.evaluate((i) => {
    const r = (globalThis as unknown as RuntimeWindow).__tandem!.elementBox(i);
    return `${r.code}\u0000${r.center?.x ?? 0}\u0000${r.center?.y ?? 0}\u0000${r.message}`;
  }, index);
  const [code = 'error', x = '0', y = '0', message = ''] = encoded.split('\u0000');
  if (code === 'ok') return { code: 'ok', x: Number(x), y: Number(y) };
  return { code: code as ActionResult['code'], message };
}

/** The content model for retrieve, as JSON from the runtime (see runtimeSnapshot). */
export async function runtimeContent(page: Page, options: Partial<ContentOptions>): Promise<PageContent> {
  await ensureRuntime(page);
  const json = await page.evaluate((o) => (globalThis as unknown as RuntimeWindow).__tandem!.contentJson(o), options);
  return JSON.parse(json) as PageContent;
}

/** Scrolls to the bottom until the page stops growing or `maxMs` pass. */
export async function runtimeScrollToBottom(
  page: Page,
  maxMs: number,
): Promise<{ reached_bottom: boolean; ms: number }> {
  await ensureRuntime(page);
  const json = await page.evaluate(
    (ms) => (globalThis as unknown as RuntimeWindow).__tandem!.scrollToBottomJson(ms),
    maxMs,
  );
  return JSON.parse(json) as { reached_bottom: boolean; ms: number };
}

/** Runs `capture` with `marks` drawn over the page (set-of-marks), and takes them away after. */
export async function withMarks<T>(page: Page, marks: readonly Mark[], capture: () => Promise<T>): Promise<T> {
  await ensureRuntime(page);
  // As JSON: a page that patches Array.prototype breaks Playwright's argument serializer too.
  await page.evaluate(
    (m) => (globalThis as unknown as RuntimeWindow).__tandem!.showMarksJson(m),
    JSON.stringify(marks),
  );
  try {
    return await capture();
  } finally {
    await page.evaluate(() => (globalThis as unknown as RuntimeWindow).__tandem!.hideMarks()).catch(() => undefined);
  }
}

/** The form fields a visitor changed on the page (its main document), for a parked session. */
export async function runtimeReadForms(page: Page): Promise<FormState> {
  await ensureRuntime(page);
  const json = await page.evaluate(() => (globalThis as unknown as RuntimeWindow).__tandem!.readFormsJson());
  return JSON.parse(json) as FormState;
}

/** Puts fields read by runtimeReadForms back on the page as it is now. */
export async function runtimeWriteForms(
  page: Page,
  fields: readonly FieldValue[],
): Promise<{ restored: number; missing: number }> {
  if (!fields.length) return { restored: 0, missing: 0 };
  await ensureRuntime(page);
  const json = await page.evaluate(
    (f) => (globalThis as unknown as RuntimeWindow).__tandem!.writeFormsJson(f),
    JSON.stringify(fields),
  );
  return JSON.parse(json) as { restored: number; missing: number };
}
