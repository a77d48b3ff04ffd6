/** Viewport size in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

export const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800 };

/**
 * One session's browser: a context + page in the relay's Chromium, or a tab in the user's browser.
 * Every method may throw `NavigationFailed` or `BrowserGone`; none throws raw Playwright errors.
 */
export interface BrowserDriver {
  readonly kind: 'playwright' | 'extension';
  /** Opens `url` in the session's page and waits (bounded) for it to load. */
  navigate(url: string): Promise<void>;
  back(): Promise<void>;
  forward(): Promise<void>;
  /** The current URL ("" before the first navigation). */
  url(): string;
  title(): Promise<string>;
  /** A PNG of the viewport. */
  screenshot(): Promise<Buffer>;
  setViewport(viewport: Viewport): Promise<void>;
  /** Releases the context/tab; idempotent. */
  close(): Promise<void>;
  /** Called once if the browser ends the session by itself (crash, tab closed by the user). */
  onGone(listener: (reason: GoneReason) => void): void;
}

export type GoneReason = 'browser_crashed' | 'closed_in_browser';
