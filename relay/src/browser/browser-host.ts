import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import type { Logger } from '../logger';
import { redactUrls } from '../redact';
import { chromiumArgs, findChromium } from './chromium';
import { BrowserUnavailable } from './errors';
import { OpenGate } from './open-gate';

export interface BrowserHostOptions {
  /** CHROMIUM_PATH; unset means "find one". */
  executablePath?: string | undefined;
  /**
   * Playwright browser servers (`launchServer()`, TANDEM_BROWSER_WS_ENDPOINTS) to use instead of a local
   * Chromium; contexts go to the least loaded one that answers.
   */
  wsEndpoints?: readonly string[] | undefined;
  /** The setting that gave them, for messages (TANDEM_BROWSER_WS_ENDPOINTS or TANDEM_BROWSER_WS_ENDPOINT). */
  wsSetting?: string | undefined;
  headless: boolean;
  logger: Logger;
}

/** How long a browser server that failed to connect is passed over before it is tried again. */
const RETRY_AFTER_MS = 5_000;

/** One browser: the local Chromium, or one browser server. */
interface Slot {
  /** Its ws endpoint; undefined: the local Chromium. */
  endpoint: string | undefined;
  /** Its number in the list, for logs (the endpoint itself may carry a token). */
  n: number;
  browser: Promise<Browser> | undefined;
  current: Browser | undefined;
  /** Passed over until then after a failed connect. */
  failedUntil: number;
}

/**
 * The relay's browsers, shared by every remote session (each gets its own context): one local Chromium,
 * or a tier of browser servers with each context going to the least loaded server that answers. Started
 * or connected on first use; a browser that dies or a connection that drops is started or reconnected on
 * the next use, and the others keep serving meanwhile.
 */
export class BrowserHost {
  private readonly slots: Slot[];
  private closed = false;
  /** How many browsers were launched or connected so far (observability and tests). */
  starts = 0;
  /** Sessions opening their first page, a few at a time (see OpenGate). */
  readonly opening = new OpenGate();

  constructor(private readonly options: BrowserHostOptions) {
    const endpoints = options.wsEndpoints?.length ? options.wsEndpoints : [undefined];
    this.slots = endpoints.map((endpoint, n) => ({
      endpoint,
      n: n + 1,
      browser: undefined,
      current: undefined,
      failedUntil: 0,
    }));
  }

  /**
   * A new context on the least loaded browser (contexts open now; a browser not yet connected counts as
   * empty), trying the next one when a browser cannot be reached or dies meanwhile.
   */
  async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    let lastError: unknown;
    for (const slot of this.byLoad()) {
      try {
        return await this.contextOn(slot, options);
      } catch (error) {
        if (this.closed) throw error;
        lastError = error;
        if (this.slots.length > 1) {
          slot.failedUntil = Date.now() + RETRY_AFTER_MS;
          this.options.logger.warn(
            { browserServer: slot.n, err: error },
            'browser server unavailable; trying the next one',
          );
        }
      }
    }
    throw lastError;
  }

  /** Open contexts per browser, in the order of TANDEM_BROWSER_WS_ENDPOINTS (null: not connected). */
  load(): (number | null)[] {
    return this.slots.map((slot) => (slot.current?.isConnected() ? slot.current.contexts().length : null));
  }

  /** Browsers that answer first, then the least loaded; ones that just failed last. */
  private byLoad(): Slot[] {
    const now = Date.now();
    const load = (slot: Slot) => (slot.current?.isConnected() ? slot.current.contexts().length : 0);
    return [...this.slots].sort(
      (a, b) => Number(a.failedUntil > now) - Number(b.failedUntil > now) || load(a) - load(b) || a.n - b.n,
    );
  }

  private async contextOn(slot: Slot, options: BrowserContextOptions): Promise<BrowserContext> {
    try {
      return await (await this.browserOf(slot)).newContext(options);
    } catch (error) {
      // The browser may have died between browserOf() and newContext(): one fresh start, then give up.
      if (this.closed) throw error;
      const browser = await this.browserOf(slot);
      if (browser.isConnected()) return browser.newContext(options);
      throw error;
    }
  }

  /** The first browser, starting it if needed (tests and observability). */
  get(): Promise<Browser> {
    return this.browserOf(this.slots[0] as Slot);
  }

  private browserOf(slot: Slot): Promise<Browser> {
    if (this.closed) return Promise.reject(new BrowserUnavailable('the relay is shutting down'));
    slot.browser ??= this.start(slot);
    return slot.browser;
  }

  private async start(slot: Slot): Promise<Browser> {
    const { logger } = this.options;
    const wsEndpoint = slot.endpoint;
    const attempt = (async () => {
      if (wsEndpoint) {
        // The endpoint often carries a token (?token=…): logs and answers name the setting, never its value.
        logger.info({ browserServer: redactUrls(wsEndpoint) }, 'connecting to browser server');
        return chromium.connect(wsEndpoint, { timeout: 15_000 }).catch((error: unknown) => {
          const detail = redactUrls(
            ((error as Error).message.split('\n')[0] ?? '').replaceAll(wsEndpoint, 'the endpoint'),
          );
          const setting = this.options.wsSetting ?? 'TANDEM_BROWSER_WS_ENDPOINTS';
          const which =
            this.slots.length > 1 ? `browser server ${slot.n} of ${setting}` : `the browser server (${setting})`;
          throw new BrowserUnavailable(
            `${which} could not be reached (${detail}). Check that it is running and that the setting is right.`,
          );
        });
      }
      let executablePath: string;
      try {
        executablePath = findChromium(this.options.executablePath);
      } catch (error) {
        throw new BrowserUnavailable((error as Error).message);
      }
      logger.info({ executablePath }, 'launching chromium');
      return chromium.launch({ executablePath, headless: this.options.headless, args: chromiumArgs() });
    })();
    try {
      const browser = await attempt;
      this.starts++;
      slot.failedUntil = 0;
      browser.on('disconnected', () => {
        logger.warn(
          { browserServer: slot.endpoint ? slot.n : undefined },
          'browser disconnected; the next session starts or reconnects it',
        );
        if (slot.current === browser) slot.browser = undefined;
      });
      slot.current = browser;
      if (this.closed) await browser.close();
      return browser;
    } catch (error) {
      slot.browser = undefined;
      throw error;
    }
  }

  /** The browser process id of a locally launched Chromium (observability; tests kill it to prove recovery). */
  async pid(): Promise<number | undefined> {
    const slot = this.slots[0] as Slot;
    if (slot.endpoint || !slot.current?.isConnected()) return undefined;
    const cdp = await slot.current.newBrowserCDPSession();
    try {
      const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
        processInfo: { type: string; id: number }[];
      };
      return processInfo.find((p) => p.type === 'browser')?.id;
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browsers = this.slots.map((slot) => slot.current);
    for (const slot of this.slots) {
      slot.browser = undefined;
      slot.current = undefined;
    }
    await Promise.all(browsers.map((browser) => browser?.close().catch(() => undefined)));
  }
}
