import type { Page } from 'playwright-core';
import type { Logger } from '../logger';
import type { PageSessions } from './page-sessions';

/** TANDEM_SCRIPT_TIMEOUT_MS's default. */
export const DEFAULT_SCRIPT_TIMEOUT_MS = 10_000;
/** Scripts stopped for one operation before the page counts as unresponsive. */
const MAX_STOPS = 3;
/** How long the CDP answer to a stop may take (it comes once the stopped script has unwound). */
const STOP_ANSWER_MS = 2_000;

export interface ScriptWatchOptions {
  /** How long a page's main thread may stay busy before its script is stopped (TANDEM_SCRIPT_TIMEOUT_MS). */
  hangMs: number;
  logger: Logger;
  /** Told each time a script was stopped, so the agent hears of it. */
  onStop(message: string): void;
}

/**
 * Keeps a page whose script never yields (`for (;;) {}` on load or in a click handler) from hanging
 * the session. Every Playwright call into such a page waits forever: evaluate, input, title, even
 * screenshots. While an operation runs, the watch asks the page for a trivial value now and then; when
 * that goes unanswered, it stops the running script with CDP `Runtime.terminateExecution`, which Chromium
 * delivers by interrupt even to a busy page, and the operation goes on. A page that stays stuck ends the
 * operation with PageStuck instead of a hang.
 *
 * The stop goes through the page's own session (PageSessions), attached as the page opened.
 */
export class ScriptWatch {
  constructor(
    private readonly sessions: PageSessions,
    private readonly options: ScriptWatchOptions,
  ) {}

  /** Resolves or rejects as `operation` does; the page `pageOf()` names is checked while it runs. */
  async watch<T>(pageOf: () => Page, operation: Promise<T>): Promise<T> {
    // Handled here too: a page given up on leaves its call pending, and it may fail long after.
    operation.catch(() => undefined);
    const period = this.options.hangMs / 2;
    for (let stops = 0; ; ) {
      if (await settlesWithin(operation, period)) return operation;
      const page = pageOf();
      // A page that answers is busy with something legitimate (loading, a wait): keep waiting.
      const probe = page.evaluate(() => 0);
      if (await settlesWithin(probe, period)) continue;
      if (await settlesWithin(operation, 0)) return operation;
      if (stops === MAX_STOPS) throw new PageStuck(page, stops);
      stops++;
      await this.stop(page, stops === 1);
    }
  }

  /** Stops the script running in `page`; the agent hears of the first stop of an operation. */
  private async stop(page: Page, tell: boolean): Promise<void> {
    const session = await this.sessions.get(page);
    const seconds = Math.round(this.options.hangMs / 1000);
    this.options.logger.info(
      { url: page.url(), hangMs: this.options.hangMs },
      'stopping a page script that never yields',
    );
    await settlesWithin(session?.send('Runtime.terminateExecution') ?? Promise.resolve(), STOP_ANSWER_MS);
    if (tell)
      this.options.onStop(
        `A script on the page kept it busy for more than ${seconds} s without a pause, so it was stopped (TANDEM_SCRIPT_TIMEOUT_MS); the page may not work as its authors meant.`,
      );
  }
}

/** A page that stayed busy although its scripts were stopped `stops` times. */
export class PageStuck extends Error {
  constructor(
    readonly page: Page,
    readonly stops: number,
  ) {
    super(`the page at ${page.url()} stayed busy after its scripts were stopped ${stops} times`);
    this.name = 'PageStuck';
  }
}

/** Whether `promise` settles (either way) within `ms`; it is never rejected through here. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => true,
    () => true,
  );
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
