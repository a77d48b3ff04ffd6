import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import type { Logger } from '../logger';
import { redactUrls } from '../redact';
import { chromiumArgs, findChromium } from './chromium';
import { BrowserUnavailable } from './errors';
import { OpenGate } from './open-gate';

export interface BrowserHostOptions {
  /** CHROMIUM_PATH; unset means "find one". */
  executablePath?: string | undefined;
  /** A Playwright browser server (`launchServer()`) to use instead of a local Chromium. */
  wsEndpoint?: string | undefined;
  headless: boolean;
  logger: Logger;
}

/**
 * The relay's one browser, shared by every remote session (each gets its own context). Started on
 * first use; if it dies or the connection to the browser server drops, the next use starts a new one.
 */
export class BrowserHost {
  private browser: Promise<Browser> | undefined;
  private current: Browser | undefined;
  private closed = false;
  /** How many browsers were launched or connected so far (observability and tests). */
  starts = 0;
  /** Sessions opening their first page, a few at a time (see OpenGate). */
  readonly opening = new OpenGate();

  constructor(private readonly options: BrowserHostOptions) {}

  async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    try {
      return await (await this.get()).newContext(options);
    } catch (error) {
      // The browser may have died between get() and newContext(): one fresh start, then give up.
      if (this.closed) throw error;
      const browser = await this.get();
      if (browser.isConnected()) return browser.newContext(options);
      throw error;
    }
  }

  /** The running browser, starting one if needed. */
  get(): Promise<Browser> {
    if (this.closed) return Promise.reject(new BrowserUnavailable('the relay is shutting down'));
    this.browser ??= this.start();
    return this.browser;
  }

  private async start(): Promise<Browser> {
    const { wsEndpoint, logger } = this.options;
    const attempt = (async () => {
      if (wsEndpoint) {
        // The endpoint often carries a token (?token=…): logs and answers name the setting, never its value.
        logger.info({ browserServer: redactUrls(wsEndpoint) }, 'connecting to browser server');
        return chromium.connect(wsEndpoint, { timeout: 15_000 }).catch((error: unknown) => {
          const detail = redactUrls(
            ((error as Error).message.split('\n')[0] ?? '').replaceAll(wsEndpoint, 'the endpoint'),
          );
          throw new BrowserUnavailable(
            `the browser server (TANDEM_BROWSER_WS_ENDPOINT) could not be reached (${detail}). Check that it is running and that the setting is right.`,
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
      browser.on('disconnected', () => {
        logger.warn('browser disconnected; the next session starts a new one');
        if (this.current === browser) this.browser = undefined;
      });
      this.current = browser;
      if (this.closed) await browser.close();
      return browser;
    } catch (error) {
      this.browser = undefined;
      throw error;
    }
  }

  /** The browser process id of a locally launched Chromium (observability; tests kill it to prove recovery). */
  async pid(): Promise<number | undefined> {
    if (this.options.wsEndpoint || !this.current?.isConnected()) return undefined;
    const cdp = await this.current.newBrowserCDPSession();
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
    const browser = this.current;
    this.browser = undefined;
    this.current = undefined;
    await browser?.close().catch(() => undefined);
  }
}
