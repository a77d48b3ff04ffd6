import type { CommandParams, CommandResult } from '@tandem/shared';
import { browser } from 'wxt/browser';
import { setMarks } from './dom';
import { CommandFailure } from './errors';
import { assertAllowed } from './restricted';
import { sessionTab } from './tabs';

/** Chrome allows captureVisibleTab twice per second; this keeps us under it. */
const CAPTURE_INTERVAL_MS = 550;
let lastCaptureAt = 0;
let queue: Promise<unknown> = Promise.resolve();

/** A PNG (or JPEG) of the session tab's viewport, with element marks when asked: brings the tab to the front of its window, then captures it. */
export function screenshot(params: CommandParams<'screenshot'>): Promise<CommandResult<'screenshot'>> {
  // Captures run one at a time: two sessions must not bring their tabs forward over each other.
  const next = queue.then(() => marked(params));
  queue = next.catch(() => undefined);
  return next;
}

/** The capture, with the relay's element indices drawn over the page for it when it sent any. */
async function marked(params: CommandParams<'screenshot'>): Promise<CommandResult<'screenshot'>> {
  const quality = params.jpeg_quality;
  if (!params.marks?.length) return capture(params.tabId, quality);
  await setMarks(params.tabId, params.marks);
  try {
    return await capture(params.tabId, quality);
  } finally {
    await setMarks(params.tabId, undefined).catch(() => undefined);
  }
}

/** Captures that found another tab in front are retried this many times before failing. */
const CAPTURE_ATTEMPTS = 2;

async function capture(tabId: number, jpegQuality?: number): Promise<CommandResult<'screenshot'>> {
  for (let attempt = 1; ; attempt++) {
    const tab = await sessionTab(tabId);
    assertAllowed(tab.url ?? '');
    // captureVisibleTab shows whatever tab is in front of the window: bring the session's forward
    // first (without focusing the window, which would take the user's keyboard).
    if (!(await isFront(tabId, tab.windowId))) await browser.tabs.update(tabId, { active: true });
    const wait = lastCaptureAt + CAPTURE_INTERVAL_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!(await isFront(tabId, tab.windowId))) {
      if (attempt < CAPTURE_ATTEMPTS) continue;
      throw notInFront();
    }
    lastCaptureAt = Date.now();
    const dataUrl = await browser.tabs.captureVisibleTab(
      tab.windowId,
      jpegQuality ? { format: 'jpeg', quality: jpegQuality } : { format: 'png' },
    );
    // The user may have switched tabs during the capture itself: then the image is another tab's.
    if (await isFront(tabId, tab.windowId)) return { png: dataUrl.slice(dataUrl.indexOf(',') + 1) };
    if (attempt >= CAPTURE_ATTEMPTS) throw notInFront();
  }
}

async function isFront(tabId: number, windowId: number): Promise<boolean> {
  const [active] = await browser.tabs.query({ active: true, windowId });
  return active?.id === tabId;
}

// No dedicated protocol code exists for this yet; `timeout` keeps it retriable (503 + Retry-After).
function notInFront(): CommandFailure {
  return new CommandFailure(
    'timeout',
    'The session tab could not be kept in front of its window for the screenshot (another tab was brought forward while capturing). Leave the session tab in front, or retry.',
  );
}
