import type { BrowserContext, Page, Request } from 'playwright-core';

/** Longest wait for network activity an action started (XHR, fetch, images of a new view). */
export const SETTLE_NETWORK_MS = 3_000;
/** After DOMContentLoaded of a new document, how long to wait for `load` before going on anyway. */
export const LOAD_GRACE_MS = 5_000;

/** Where a session stood before an action: navigations and requests started so far. */
export interface SettleMark {
  navigations: number;
  requests: number;
}

/**
 * Tracks what a session's pages are doing so an action can wait until its effects are done:
 * documents loading and the requests it started. Long-lived requests (event streams, websockets) do
 * not count, nor do requests started before the action: a request that never ends (long polling, a
 * hung API) would otherwise cost every later action the whole settle time.
 */
export class SettleTracker {
  /** Requests in flight, with the sequence number of their start. */
  private readonly inflight = new Map<Request, number>();
  private navigations = 0;
  private requests = 0;
  private idleWaiters: { after: number; resolve: () => void }[] = [];

  constructor(context: BrowserContext) {
    context.on('request', (request) => {
      if (request.isNavigationRequest() && isTopLevel(request)) this.navigations++;
      if (request.resourceType() === 'eventsource' || request.resourceType() === 'websocket') return;
      this.inflight.set(request, ++this.requests);
    });
    const done = (request: Request) => {
      if (!this.inflight.delete(request)) return;
      this.idleWaiters = this.idleWaiters.filter((waiter) => {
        if (this.busySince(waiter.after)) return true;
        waiter.resolve();
        return false;
      });
    };
    context.on('requestfinished', done);
    context.on('requestfailed', done);
  }

  /** A mark to compare against after an action: did it start a navigation, which requests are its own? */
  mark(): SettleMark {
    return { navigations: this.navigations, requests: this.requests };
  }

  /**
   * Waits until the page is quiet after an action: one rendering frame for handlers to run, the new
   * document if one started loading, then no requests in flight (each bounded).
   */
  async settle(page: Page, mark: SettleMark, navigationTimeoutMs: number): Promise<{ navigated: boolean }> {
    await nextFrame(page);
    const navigated = this.navigations !== mark.navigations;
    if (navigated) {
      await page.waitForLoadState('domcontentloaded', { timeout: navigationTimeoutMs }).catch(() => undefined);
      await page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => undefined);
    }
    await this.networkIdle(mark.requests, SETTLE_NETWORK_MS);
    if (navigated) await nextFrame(page);
    return { navigated };
  }

  /** Whether a request started after sequence number `after` is still in flight. */
  private busySince(after: number): boolean {
    for (const started of this.inflight.values()) if (started > after) return true;
    return false;
  }

  private networkIdle(after: number, timeoutMs: number): Promise<void> {
    if (!this.busySince(after)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter = {
        after,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((w) => w !== waiter);
        resolve();
      }, timeoutMs);
      this.idleWaiters.push(waiter);
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
