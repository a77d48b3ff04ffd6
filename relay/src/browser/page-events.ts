import { setTimeout as delay } from 'node:timers/promises';
import { type DialogPolicy, type DialogType, dialogAnswer } from '@tandem/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { DISMISS_DIALOGS, dialogEvent, downloadRefusedEvent, fileChooserRefusedEvent } from './dialogs';
import type { PageEvent, TabInfo } from './driver';

/** How long the tab list waits for one tab's title. */
const TITLE_WAIT_MS = 2_000;

/**
 * Watches a session's context: follows new tabs and popups, answers dialogs by the session's dialog
 * policy, refuses downloads and file choosers. Everything it does is queued as a PageEvent so the agent learns what happened.
 */
export class PageEvents {
  private readonly pages: Page[] = [];
  private readonly pending: PageEvent[] = [];
  /** Tabs the relay itself closes or opens: no "closed itself" / "new tab" event for those. */
  private readonly quiet = new WeakSet<Page>();
  private opening = 0;
  private active: Page;
  /** How confirm() and prompt() are answered; the step loop sets it from the task. */
  dialogs: DialogPolicy = DISMISS_DIALOGS;

  constructor(
    context: BrowserContext,
    first: Page,
    private readonly onActiveChange: (page: Page) => void = () => undefined,
  ) {
    this.active = first;
    this.watch(first);
    context.on('page', (page) => {
      this.watch(page);
      if (this.opening > 0) return;
      // The session follows a tab the page opened (target=_blank, window.open): that is where the task goes on.
      this.activate(page);
      const opener = this.pages.length > 1 ? ' from the page' : '';
      this.push({ kind: 'popup', message: `A new tab opened${opener}; the session now works in it.` });
    });
  }

  get page(): Page {
    return this.active;
  }

  /** Events since the last call, oldest first; the same event twice in a row is told once. */
  drain(): PageEvent[] {
    return this.pending
      .splice(0)
      .filter((event, i, all) => event.kind !== all[i - 1]?.kind || event.message !== all[i - 1]?.message);
  }

  async tabs(): Promise<TabInfo[]> {
    return Promise.all(
      this.pages.map(async (page, index) => ({
        index,
        url: page.url(),
        // A tab whose script never yields would never tell its title: the list must not wait on it.
        title: await Promise.race([page.title().catch(() => ''), delay(TITLE_WAIT_MS, '', { ref: false })]),
        active: page === this.active,
      })),
    );
  }

  /** Makes tab `index` the session's page. */
  switchTo(index: number): boolean {
    const page = this.pages[index];
    if (!page) return false;
    this.activate(page);
    return true;
  }

  private activate(page: Page): void {
    this.active = page;
    this.onActiveChange(page);
  }

  /**
   * Closes a tab the relay gave up on (a page that never stops spinning) and goes on in the previous
   * tab, or in a new blank one when it was the last. Returns the URL the session is at now ("" = blank).
   */
  async replace(page: Page, context: BrowserContext): Promise<string> {
    this.quiet.add(page);
    // What was said about the page's scripts is moot: the error that follows says what happened.
    const unsaid = this.pending.filter((event) => event.kind !== 'script_stopped');
    this.pending.splice(0, this.pending.length, ...unsaid);
    // No beforeunload: the page cannot run one, and closing from the browser side needs no answer from it.
    await page.close({ runBeforeUnload: false }).catch(() => undefined);
    if (!this.pages.length) {
      this.opening++;
      try {
        this.activate(await context.newPage());
      } finally {
        this.opening--;
      }
    }
    return this.active.url() === 'about:blank' ? '' : this.active.url();
  }

  /** Queues something the relay did to the page on its own (a stopped script) for the next report. */
  push(event: PageEvent): void {
    this.pending.push(event);
  }

  private watch(page: Page): void {
    this.pages.push(page);
    page.on('dialog', (dialog) => {
      const type = dialog.type() as DialogType;
      const { accepted, answer } = dialogAnswer(this.dialogs, type, dialog.defaultValue());
      const settled = accepted ? dialog.accept(answer) : dialog.dismiss();
      void settled.catch(() => undefined);
      this.push(dialogEvent(type, dialog.message(), accepted, answer));
    });
    page.on('download', (download) => {
      void download.cancel().catch(() => undefined);
      this.push(downloadRefusedEvent(download.suggestedFilename()));
    });
    page.on('filechooser', () => {
      // Listening is what suppresses the native dialog; no file is ever set.
      this.push(fileChooserRefusedEvent());
    });
    page.on('close', () => {
      const index = this.pages.indexOf(page);
      if (index >= 0) this.pages.splice(index, 1);
      if (page === this.active && this.pages.length) {
        this.activate(this.pages[Math.max(0, index - 1)] ?? (this.pages[0] as Page));
        if (this.quiet.has(page)) return;
        this.push({ kind: 'tab_closed', message: 'The tab closed itself; the session went back to the previous tab.' });
      }
    });
  }

  /** Tabs still open. */
  get count(): number {
    return this.pages.length;
  }
}
