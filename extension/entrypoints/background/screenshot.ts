import type { CommandParams, CommandResult } from '@tandem/shared';
import { browser } from 'wxt/browser';
import { CommandFailure } from './errors';
import { assertAllowed } from './restricted';
import { sessionTab } from './tabs';

/** Chrome allows captureVisibleTab twice per second; this keeps us under it. */
const CAPTURE_INTERVAL_MS = 550;
let lastCaptureAt = 0;
let queue: Promise<unknown> = Promise.resolve();

/** A PNG of the session tab's viewport: brings the tab to the front of its window, then captures it. */
export function screenshot(params: CommandParams<'screenshot'>): Promise<CommandResult<'screenshot'>> {
  // Captures run one at a time: two sessions must not bring their tabs forward over each other.
  const next = queue.then(() => capture(params.tabId));
  queue = next.catch(() => undefined);
  return next;
}

async function capture(tabId: number): Promise<CommandResult<'screenshot'>> {
  const tab = await sessionTab(tabId);
  assertAllowed(tab.url ?? '');
  if (!tab.active) await browser.tabs.update(tabId, { active: true });
  const wait = lastCaptureAt + CAPTURE_INTERVAL_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastCaptureAt = Date.now();
  const dataUrl = await browser.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
  // Check the captured tab is the session's: the user may have switched tabs meanwhile.
  const [active] = await browser.tabs.query({ active: true, windowId: tab.windowId });
  if (active?.id !== tabId) {
    throw new CommandFailure('timeout', 'Another tab came to the front during the screenshot; retry.');
  }
  return { png: dataUrl.slice(dataUrl.indexOf(',') + 1) };
}
