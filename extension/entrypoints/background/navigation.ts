import { browser } from 'wxt/browser';
import { onDownloadRefused } from './downloads';
import { CommandFailure } from './errors';

export const NAVIGATION_TIMEOUT_MS = 30_000;
/** Bound on waiting for the page's next frame (background tabs may not render any). */
export const FRAME_WAIT_MS = 100;

/**
 * Resolves when the tab's top frame finishes loading a document (not about:blank), rejects with
 * `navigation_failed` on a network error or timeout and with `tab_closed` if the tab goes away.
 * Listeners are registered before the caller starts the navigation, so no event is missed. A load
 * only counts while `ready()` holds: a caller waiting for a history navigation ignores the late
 * "complete" of the page it is leaving.
 */
export function watchLoad(
  tabId: number,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
  ready: () => boolean = () => true,
): { done: Promise<void>; cancel(): void; resolve(): void } {
  let cancel: () => void = () => undefined;
  let resolveNow: () => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    const finish = (error?: CommandFailure) => {
      cancel();
      if (error) reject(error);
      else resolve();
    };
    resolveNow = () => finish();
    const completed = (d: { tabId: number; frameId: number; url: string }) => {
      if (d.tabId === tabId && d.frameId === 0 && d.url !== 'about:blank' && ready()) finish();
    };
    const failed = (d: { tabId: number; frameId: number; url: string; error: string }) => {
      if (d.tabId !== tabId || d.frameId !== 0 || d.error === 'net::ERR_ABORTED') return;
      finish(new CommandFailure('navigation_failed', `${d.error} loading ${d.url}`));
    };
    const updated = (id: number, change: { status?: string }, tab: { url?: string }) => {
      if (id === tabId && change.status === 'complete' && tab.url && tab.url !== 'about:blank' && ready()) finish();
    };
    const removed = (id: number) => {
      if (id === tabId) finish(new CommandFailure('tab_closed', 'The session tab was closed.'));
    };
    const timer = setTimeout(
      () =>
        finish(
          new CommandFailure('navigation_failed', `the page did not load within ${Math.round(timeoutMs / 1000)} s`),
        ),
      timeoutMs,
    );
    browser.webNavigation.onCompleted.addListener(completed);
    browser.webNavigation.onErrorOccurred.addListener(failed);
    browser.tabs.onUpdated.addListener(updated);
    browser.tabs.onRemoved.addListener(removed);
    // A navigation that turned into a refused download ends here: the tab stays on its page.
    const unsubscribe = onDownloadRefused(tabId, () => finish());
    cancel = () => {
      unsubscribe();
      clearTimeout(timer);
      browser.webNavigation.onCompleted.removeListener(completed);
      browser.webNavigation.onErrorOccurred.removeListener(failed);
      browser.tabs.onUpdated.removeListener(updated);
      browser.tabs.onRemoved.removeListener(removed);
    };
  });
  return { done, cancel: () => cancel(), resolve: () => resolveNow() };
}

/** Notes whether the tab's top frame starts a new document while `run` runs (or shortly after). */
export async function detectNavigation<T>(
  tabId: number,
  run: () => Promise<T>,
): Promise<{ value: T; started: boolean }> {
  let started = false;
  const before = (d: { tabId: number; frameId: number }) => {
    if (d.tabId === tabId && d.frameId === 0) {
      started = true;
    }
  };
  browser.webNavigation.onBeforeNavigate.addListener(before);
  try {
    const value = await run();
    if (!started) {
      // The action's handlers run before the next frame; a navigation they start shows by then.
      await nextFrame(tabId);
      const tab = await browser.tabs.get(tabId).catch(() => undefined);
      if (tab?.status === 'loading') started = true;
    }
    return { value, started };
  } finally {
    browser.webNavigation.onBeforeNavigate.removeListener(before);
  }
}

/** Resolves after the tab rendered one more frame (bounded); tolerates the document going away. */
async function nextFrame(tabId: number): Promise<void> {
  await browser.scripting
    .executeScript({
      target: { tabId },
      args: [FRAME_WAIT_MS],
      func: (ms: number) =>
        new Promise<boolean>((resolve) => {
          setTimeout(() => resolve(false), ms);
          requestAnimationFrame(() => resolve(true));
        }),
    })
    .catch(() => undefined);
}
