import type { BrowserContext, Page } from 'playwright-core';
import type { Logger } from '../logger';
import type { BrowserHost } from './browser-host';
import type { BrowserDriver, GoneReason, Viewport } from './driver';
import { BrowserGone, describeNavigationError, NavigationFailed } from './errors';
import type { ProxySettings } from './proxies';

export interface PlaywrightDriverOptions {
  viewport: Viewport;
  proxy?: ProxySettings | undefined;
  navigationTimeoutMs: number;
  logger: Logger;
}

/** After DOMContentLoaded, how long to wait for `load` (images, fonts) before acting anyway. */
const LOAD_GRACE_MS = 5_000;

/** A remote session: its own BrowserContext (cookies, proxy, viewport) and page in the relay's Chromium. */
export class PlaywrightDriver implements BrowserDriver {
  readonly kind = 'playwright';
  private closing = false;
  private goneListeners: ((reason: GoneReason) => void)[] = [];

  private constructor(
    private readonly context: BrowserContext,
    private page: Page,
    private readonly options: PlaywrightDriverOptions,
  ) {
    context.on('close', () => {
      if (this.closing) return;
      this.closing = true;
      for (const listener of this.goneListeners) listener('browser_crashed');
    });
  }

  static async open(host: BrowserHost, options: PlaywrightDriverOptions): Promise<PlaywrightDriver> {
    const context = await host.newContext({
      viewport: options.viewport,
      acceptDownloads: false,
      ...(options.proxy ? { proxy: options.proxy } : {}),
    });
    try {
      context.setDefaultNavigationTimeout(options.navigationTimeoutMs);
      context.setDefaultTimeout(options.navigationTimeoutMs);
      const page = await context.newPage();
      return new PlaywrightDriver(context, page, options);
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  async navigate(url: string): Promise<void> {
    await this.guard(async () => {
      try {
        await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.options.navigationTimeoutMs });
      } catch (error) {
        if (this.closing) throw error;
        throw new NavigationFailed(url, describeNavigationError(error, this.options.navigationTimeoutMs));
      }
      await this.page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => undefined);
    });
  }

  async back(): Promise<void> {
    await this.guard(() => this.page.goBack({ waitUntil: 'domcontentloaded' }));
  }

  async forward(): Promise<void> {
    await this.guard(() => this.page.goForward({ waitUntil: 'domcontentloaded' }));
  }

  url(): string {
    const url = this.page.url();
    return url === 'about:blank' ? '' : url;
  }

  title(): Promise<string> {
    return this.guard(() => this.page.title());
  }

  screenshot(): Promise<Buffer> {
    return this.guard(() => this.page.screenshot({ type: 'png', timeout: this.options.navigationTimeoutMs }));
  }

  async setViewport(viewport: Viewport): Promise<void> {
    await this.guard(() => this.page.setViewportSize(viewport));
  }

  onGone(listener: (reason: GoneReason) => void): void {
    this.goneListeners.push(listener);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.context
      .close()
      .catch((error: unknown) => this.options.logger.debug({ err: error }, 'context close failed'));
  }

  /** Runs a page operation, turning "target closed" errors into BrowserGone. */
  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closing) throw new BrowserGone('the session was closed');
    try {
      return await operation();
    } catch (error) {
      if (error instanceof NavigationFailed) throw error;
      const text = error instanceof Error ? error.message : String(error);
      if (
        this.closing ||
        /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected/i.test(
          text,
        )
      ) {
        throw new BrowserGone(text.split('\n')[0] ?? 'closed');
      }
      throw error;
    }
  }
}
