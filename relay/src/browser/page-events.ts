import type { BrowserContext, Page } from 'playwright-core';
import type { PageEvent, TabInfo } from './driver';

/**
 * Watches a session's context: follows new tabs and popups, accepts dialogs, refuses downloads and file
 * choosers. Everything it does is queued as a PageEvent so the agent learns what happened.
 */
export class PageEvents {
  private readonly pages: Page[] = [];
  private readonly pending: PageEvent[] = [];
  private active: Page;

  constructor(
    context: BrowserContext,
    first: Page,
    private readonly onActiveChange: (page: Page) => void = () => undefined,
  ) {
    this.active = first;
    this.watch(first);
    context.on('page', (page) => {
      this.watch(page);
      // The session follows a tab the page opened (target=_blank, window.open): that is where the task goes on.
      this.activate(page);
      const opener = this.pages.length > 1 ? ' from the page' : '';
      this.push({ kind: 'popup', message: `A new tab opened${opener}; the session now works in it.` });
    });
  }

  get page(): Page {
    return this.active;
  }

  /** Events since the last call, oldest first. */
  drain(): PageEvent[] {
    return this.pending.splice(0);
  }

  async tabs(): Promise<TabInfo[]> {
    return Promise.all(
      this.pages.map(async (page, index) => ({
        index,
        url: page.url(),
        title: await page.title().catch(() => ''),
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

  private push(event: PageEvent): void {
    this.pending.push(event);
  }

  private watch(page: Page): void {
    this.pages.push(page);
    page.on('dialog', (dialog) => {
      const type = dialog.type();
      const text = dialog.message();
      // beforeunload and confirm are accepted so the agent's navigation or action goes through.
      const accepted = type === 'prompt' ? dialog.accept(dialog.defaultValue()) : dialog.accept();
      void accepted.catch(() => undefined);
      this.push({
        kind: 'dialog',
        message: `The page showed a ${type} dialog${text ? `: "${text.slice(0, 200)}"` : ''}; it was accepted.`,
      });
    });
    page.on('download', (download) => {
      void download.cancel().catch(() => undefined);
      this.push({
        kind: 'download_refused',
        message: `The page started a download (${download.suggestedFilename()}); downloads are not supported and it was refused.`,
      });
    });
    page.on('filechooser', () => {
      // Listening is what suppresses the native dialog; no file is ever set.
      this.push({
        kind: 'file_chooser_refused',
        message: 'The page asked for a file to upload; uploading files is not supported, so nothing was chosen.',
      });
    });
    page.on('close', () => {
      const index = this.pages.indexOf(page);
      if (index >= 0) this.pages.splice(index, 1);
      if (page === this.active && this.pages.length) {
        this.activate(this.pages[Math.max(0, index - 1)] ?? (this.pages[0] as Page));
        this.push({ kind: 'tab_closed', message: 'The tab closed itself; the session went back to the previous tab.' });
      }
    });
  }

  /** Tabs still open. */
  get count(): number {
    return this.pages.length;
  }
}
