import type { BrowserContext, Page, Request } from 'playwright-core';

/** Longest wait for network activity an action started (XHR, fetch, images of a new view). */
export const SETTLE_NETWORK_MS = 3_000;
/** After DOMContentLoaded of a new document, how long to wait for `load` before going on anyway. */
export const LOAD_GRACE_MS = 5_000;

/**
 * Tracks what a session's pages are doing so an action can wait until its effects are done:
 * documents loading and requests in flight. Long-lived requests (event streams, websockets) do not count.
 */
export class SettleTracker {
  private readonly inflight = new Set<Request>();
  private navigations = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(context: BrowserContext) {
    context.on('request', (request) => {
      if (request.isNavigationRequest() && isTopLevel(request)) this.navigations++;
      if (request.resourceType() === 'eventsource' || request.resourceType() === 'websocket') return;
      this.inflight.add(request);
    });
    const done = (request: Request) => {
      if (this.inflight.delete(request) && this.inflight.size === 0) {
        for (const resolve of this.idleWaiters.splice(0)) resolve();
      }
    };
    context.on('requestfinished', done);
    context.on('requestfailed', done);
  }

  /** A mark to compare against after an action: did it start a navigation? */
  mark(): number {
    return this.navigations;
  }

  /**
   * Waits until the page is quiet after an action: one rendering frame for handlers to run, the new
   * document if one started loading, then no requests in flight (each bounded).
   */
  async settle(page: Page, mark: number, navigationTimeoutMs: number): Promise<{ navigated: boolean }> {
    await nextFrame(page);
    const navigated = this.navigations !== mark;
    if (navigated) {
      await page.waitForLoadState('domcontentloaded', { timeout: navigationTimeoutMs }).catch(() => undefined);
      await page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => undefined);
    }
    await this.networkIdle(SETTLE_NETWORK_MS);
    if (navigated) await nextFrame(page);
    return { navigated };
  }

  private networkIdle(timeoutMs: number): Promise<void> {
    if (this.inflight.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Whether a navigation request loads a top-level document (a popup's first request has no frame yet). */
function isTopLevel(request: Request): boolean {
  try {
    return request.frame().parentFrame() === null;
  } catch {
    return true;
  }
}

/** Resolves after the page rendered one more frame (handlers of the action ran); tolerates a page going away. */
async function nextFrame(page: Page): Promise<void> {
  // Background tabs may not render frames, and a hostile page may break timers: bounded on both sides.
  const frame = page
    .evaluate(
      () =>
        new Promise<void>((resolve) => {
          const win = globalThis as unknown as { requestAnimationFrame(callback: () => void): void };
          win.requestAnimationFrame(() => setTimeout(resolve, 0));
          setTimeout(resolve, 100);
        }),
    )
    .catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 500);
  });
  await Promise.race([frame, cap]);
  clearTimeout(timer);
}
