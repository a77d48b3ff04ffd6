import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Logger } from '../logger';

type SessionHook = (page: Page, session: CDPSession) => Promise<unknown> | undefined;

/**
 * The relay's own CDP session to each page of a session's context, attached as the page opens. Attached
 * later, to a page whose script already spins, its commands would queue behind that script. The script
 * watch stops runaway scripts through it; the settle tracker hears through it that a page opens a window.
 */
export class PageSessions {
  private readonly sessions = new WeakMap<Page, Promise<CDPSession | undefined>>();
  private readonly hooks: SessionHook[] = [];

  constructor(
    private readonly context: BrowserContext,
    first: Page,
    private readonly logger: Logger,
  ) {
    this.attach(first);
    context.on('page', (page) => this.attach(page));
  }

  /** Runs `hook` on every page's session, those attached already included. */
  onSession(hook: SessionHook): void {
    this.hooks.push(hook);
  }

  /** The page's session, or undefined when none could be attached (a browser that does not speak CDP). */
  get(page: Page): Promise<CDPSession | undefined> {
    return this.sessions.get(page) ?? Promise.resolve(undefined);
  }

  private attach(page: Page): void {
    const session = this.context.newCDPSession(page).catch((error: unknown) => {
      this.logger.debug({ err: error }, 'no CDP session for the page');
      return undefined;
    });
    this.sessions.set(page, session);
    // Hooks registered right after construction see the first page too: they run a turn later. What they
    // send may wait on the page; the session itself is handed out without waiting for them.
    void session.then(async (cdp) => {
      if (!cdp) return;
      for (const hook of this.hooks) {
        await hook(page, cdp)?.catch((error: unknown) => this.logger.debug({ err: error }, 'page session hook failed'));
      }
    });
  }
}
