import type {
  Action,
  ActionResult,
  ContentOptions,
  DialogPolicy,
  Mark,
  PageContent,
  Snapshot,
  SnapshotOptions,
} from '@tandem/shared';

/** Viewport size in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

export const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800 };

/** Something the page did by itself that the agent should hear about (reported with the next action result). */
export interface PageEvent {
  kind: 'dialog' | 'popup' | 'download_refused' | 'file_chooser_refused' | 'tab_closed' | 'script_stopped';
  message: string;
}

/** One tab of a session, as the agent sees the list. */
export interface TabInfo {
  index: number;
  url: string;
  title: string;
  active: boolean;
}

/** What `content()` takes: the runtime's options plus work the driver does first. */
export interface DriverContentOptions extends Partial<ContentOptions> {
  /** Scroll to the bottom (lazy lists) for at most this many ms before reading. */
  scroll_to_bottom_ms?: number;
  /** Wait (bounded) for network and DOM to go quiet before reading (script-rendered content). */
  settle_ms?: number;
}

/** What `screenshot()` takes: by default a PNG of the viewport as the user would see it. */
export interface ScreenshotOptions {
  /** Element indices to draw over the page for this capture (set-of-marks), with their viewport boxes. */
  marks?: readonly Mark[] | undefined;
  /** A JPEG at this quality (10–100) instead of a PNG. */
  jpegQuality?: number | undefined;
}

/** An action's outcome plus whatever the page did meanwhile (dialogs, popups, refused downloads). */
export interface DriverActionResult extends ActionResult {
  events: PageEvent[];
}

/**
 * One session's browser: a context + page in the relay's Chromium, or a tab in the user's browser.
 * Methods throw `NavigationFailed` or `BrowserGone`, never raw Playwright errors; `act` reports
 * failures of the action itself as data (`code`), never by throwing.
 */
export interface BrowserDriver {
  readonly kind: 'playwright' | 'extension';
  /** Opens `url` in the session's page and waits (bounded) for it to load. */
  navigate(url: string): Promise<void>;
  /** Goes back one page; false when the tab had no previous page (nothing happened). */
  back(): Promise<boolean>;
  /** Goes forward one page; false when there was no next page. */
  forward(): Promise<boolean>;
  /** The current URL ("" before the first navigation). */
  url(): string;
  /** The HTTP status of the current document's response; undefined when not known (no response yet). */
  httpStatus(): number | undefined;
  title(): Promise<string>;
  /** Indexed interactive elements and page text, from the page runtime. */
  snapshot(options?: Partial<SnapshotOptions>): Promise<Snapshot>;
  /** The content model for retrieve, from the page runtime (after the optional scroll / settle). */
  content(options?: DriverContentOptions): Promise<PageContent>;
  /** Runs one action and waits (bounded) for the page to settle. */
  act(action: Action): Promise<DriverActionResult>;
  /** The session's tabs; the active one is where actions go. */
  tabs(): Promise<TabInfo[]>;
  /** A PNG (or JPEG) of the viewport, optionally with element indices drawn on it. */
  screenshot(options?: ScreenshotOptions): Promise<Buffer>;
  setViewport(viewport: Viewport): Promise<void>;
  /** How the page's confirm() and prompt() are answered from now on (dismissed until set). */
  setDialogPolicy(policy: DialogPolicy): void;
  /** Releases the context/tab; idempotent. */
  close(): Promise<void>;
  /** Called once if the browser ends the session by itself (crash, tab closed by the user). */
  onGone(listener: (reason: GoneReason) => void): void;
}

export type GoneReason =
  | 'browser_crashed'
  | 'closed_in_browser'
  | 'stopped_in_browser'
  | 'extension_disconnected'
  | 'device_revoked';
