import type { BrowserContext, Page, Request } from 'playwright-core';
import type { PageSessions } from './page-sessions';

/** Longest wait for network activity an action started (XHR, fetch, images of a new view). */
export const SETTLE_NETWORK_MS = 3_000;
/** After a navigation request ended, how long its commit (or a redirect's next request) may take to show. */
const COMMIT_GRACE_MS = 1_000;
/**
 * How long a window the page said it opens may take to show up as a tab, or a navigation it asked for to
 * send its request (either may also have been blocked or cancelled).
 */
const NEW_TAB_WAIT_MS = 10_000;
/** After DOMContentLoaded of a new document, how long to wait for `load` before going on anyway. */
export const LOAD_GRACE_MS = 5_000;

/** Where a session stood before an action: navigations and requests started so far, documents committed. */
export interface SettleMark {
  navigations: number;
  requests: number;
  commits: number;
  windowOpens: number;
  pagesOpened: number;
  requestedNavigations: number;
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
  /** Top-level navigation requests in flight (a subset of `inflight`). */
  private readonly navigating = new Set<Request>();
  private navigations = 0;
  private requests = 0;
  /** Main-frame documents committed, in every tab. */
  private commits = 0;
  /** Windows the pages said they are opening (window.open, target=_blank), and tabs Playwright reported. */
  private windowOpens = 0;
  private pagesOpened = 0;
  /** Navigations a tab's own document asked for (a link, a form post, a script), before any request. */
  private requestedNavigations = 0;
  private waiters: { ready: () => boolean; resolve: () => void }[] = [];

  constructor(context: BrowserContext, sessions: PageSessions) {
    context.on('request', (request) => {
      const top = request.isNavigationRequest() && isTopLevel(request);
      if (top) {
        this.navigations++;
        this.wake();
      }
      if (request.resourceType() === 'eventsource' || request.resourceType() === 'websocket') return;
      this.inflight.set(request, ++this.requests);
      if (top) this.navigating.add(request);
    });
    const done = (request: Request) => {
      this.navigating.delete(request);
      if (this.inflight.delete(request)) this.wake();
    };
    context.on('requestfinished', done);
    context.on('requestfailed', done);
    const watch = (page: Page) =>
      page.on('framenavigated', (frame) => {
        if (frame !== page.mainFrame()) return;
        this.commits++;
        this.wake();
      });
    for (const page of context.pages()) watch(page);
    context.on('page', (page) => {
      watch(page);
      this.pagesOpened++;
      this.wake();
    });
    // Playwright reports a new tab only once it has set it up, which a loaded machine makes late; the
    // opener says at once that a window is opening.
    // Likewise a form post's request event can come long after the click returned: the renderer says at
    // once that it asked for a navigation.
    sessions.onSession(async (_page, session) => {
      let mainFrameId: string | undefined;
      session.on('Page.windowOpen', () => {
        this.windowOpens++;
        this.wake();
      });
      session.on('Page.frameRequestedNavigation', (event) => {
        if (event.frameId !== mainFrameId || event.disposition !== 'currentTab') return;
        this.requestedNavigations++;
        this.wake();
      });
      await session.send('Page.enable');
      mainFrameId = (await session.send('Page.getFrameTree')).frameTree.frame.id;
    });
  }

  /** A mark to compare against after an action: did it start a navigation, which requests are its own? */
  mark(): SettleMark {
    return {
      navigations: this.navigations,
      requests: this.requests,
      commits: this.commits,
      windowOpens: this.windowOpens,
      pagesOpened: this.pagesOpened,
      requestedNavigations: this.requestedNavigations,
    };
  }

  /**
   * Waits until the page is quiet after an action: one rendering frame for handlers to run, the new
   * document if one started loading, then no requests in flight (each bounded).
   */
  async settle(pageOf: () => Page, mark: SettleMark, navigationTimeoutMs: number): Promise<{ navigated: boolean }> {
    await nextFrame(pageOf());
    if (this.windowOpens !== mark.windowOpens) {
      await this.until(() => this.pagesOpened !== mark.pagesOpened, Math.min(navigationTimeoutMs, NEW_TAB_WAIT_MS));
    }
    if (this.requestedNavigations !== mark.requestedNavigations) {
      // It may still be cancelled (beforeunload, a download): bounded like a window.
      await this.until(() => this.navigations !== mark.navigations, Math.min(navigationTimeoutMs, NEW_TAB_WAIT_MS));
    }
    const navigated = this.navigations !== mark.navigations || this.pagesOpened !== mark.pagesOpened;
    if (navigated) {
      await this.committed(mark, navigationTimeoutMs);
      // The page may be a new tab by now, which the session follows.
      const page = pageOf();
      await page.waitForLoadState('domcontentloaded', { timeout: navigationTimeoutMs }).catch(() => undefined);
      await page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => undefined);
    }
    await this.until(() => !this.busySince(mark.requests), SETTLE_NETWORK_MS);
    if (navigated) await nextFrame(pageOf());
    return { navigated };
  }

  /** Whether a request started after sequence number `after` is still in flight. */
  private busySince(after: number): boolean {
    for (const started of this.inflight.values()) if (started > after) return true;
    return false;
  }

  /**
   * Until the new document commits, the old one is the page's and its load states are long reached (a
   * loaded machine makes the gap wide): waits for a commit since `mark`, or for the navigation to end
   * without one (a download, a 204, a refusal), allowing a moment between a redirect and its next request.
   */
  private async committed(mark: SettleMark, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const committed = () => this.commits !== mark.commits;
    for (;;) {
      await this.until(() => committed() || !this.navigatingSince(mark.requests), deadline - Date.now());
      if (committed() || Date.now() >= deadline) return;
      const grace = Math.min(COMMIT_GRACE_MS, deadline - Date.now());
      await this.until(() => committed() || this.navigatingSince(mark.requests), grace);
      if (!this.navigatingSince(mark.requests)) return;
    }
  }

  /** Whether a top-level navigation started after sequence number `after` is still in flight. */
  private navigatingSince(after: number): boolean {
    for (const request of this.navigating) if ((this.inflight.get(request) ?? 0) > after) return true;
    return false;
  }

  /** Resolves once `ready()` holds (checked as requests end and documents commit) or after `timeoutMs`. */
  private until(ready: () => boolean, timeoutMs: number): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter = {
        ready,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private wake(): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.ready()) return true;
      waiter.resolve();
      return false;
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
