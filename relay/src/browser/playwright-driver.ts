import {
  type Action,
  type ActionOf,
  type ActionResult,
  clickedMessage,
  DEFAULT_WAIT_MS,
  type DialogPolicy,
  type FieldValue,
  type FormState,
  fieldTookText,
  fileFieldRefusal,
  isSecretInput,
  MAX_WAIT_MS,
  type PageContent,
  pressedMessage,
  type Snapshot,
  type SnapshotElement,
  type SnapshotOptions,
  takesKeystrokes,
  typeOutcome,
} from '@tandem/shared';
import type { BrowserContext, Page } from 'playwright-core';
import type { Logger } from '../logger';
import type { EgressFailure } from '../network/egress-failures';
import type { EgressRegistration } from '../network/egress-proxy';
import type { BrowserHost } from './browser-host';
import type {
  BrowserDriver,
  DriverActionResult,
  DriverContentOptions,
  GoneReason,
  ScreenshotOptions,
  TabInfo,
  Viewport,
} from './driver';
import {
  BrowserGone,
  describeNavigationError,
  GuardrailRefused,
  NavigationFailed,
  NavigationRefused,
  PageUnresponsive,
  PRIVATE_NETWORK_HINT,
} from './errors';
import { statusNote } from './http-status';
import { navigationAction } from './navigation-actions';
import { PageEvents } from './page-events';
import {
  installPageRuntime,
  runtimeAct,
  runtimeContent,
  runtimeElementPoint,
  runtimeReadForms,
  runtimeScrollToBottom,
  runtimeSnapshot,
  runtimeWriteForms,
  withMarks,
} from './page-runtime';
import { PageSessions } from './page-sessions';
import { DEFAULT_SCRIPT_TIMEOUT_MS, PageStuck, ScriptWatch } from './script-watch';
import { LOAD_GRACE_MS, SettleTracker } from './settle';

export interface PlaywrightDriverOptions {
  viewport: Viewport;
  navigationTimeoutMs: number;
  /** How long a page's script may keep it from answering before the relay stops the script. */
  scriptTimeoutMs?: number | undefined;
  logger: Logger;
  /** Checks a URL the agent wants to open (scheme, private network); throws to refuse. */
  checkUrl?: (url: string) => Promise<unknown>;
  /**
   * The session's place on the egress proxy: every connection of its context goes through it, and its
   * failures say why a load failed. The driver releases it when the context closes.
   */
  egress?: EgressRegistration | undefined;
  /** Cookies and local storage to start with (a parked session coming back). */
  storageState?: StorageState | undefined;
}

/** Cookies and local storage of a context, as Playwright saves and restores them. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** What a parked session keeps of its browser to open it again where it was. */
export interface PageState {
  url: string;
  viewport: Viewport;
  storage: StorageState;
  forms: FormState;
  /** Tabs besides the active one: they do not come back. */
  otherTabs: number;
}

/** A page load of a top-level frame that failed, and why, when the egress proxy knows. */
interface FailedLoad {
  /** Running count of failed loads: callers remember the latest and look at what came after. */
  n: number;
  url: string;
  failure: EgressFailure | undefined;
}

/** How long an error page may wait for the event of the load that failed (it is normally already there). */
const FAILED_LOAD_EVENT_GRACE_MS = 2000;

const CONTEXT_GONE =
  /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected/i;
/** Actions whose message already carries the page's status (navigation-actions.ts) or is about another tab. */
const SAYS_STATUS = new Set<Action['action']>(['navigate', 'go_back', 'go_forward', 'switch_tab']);
const DOCUMENT_GONE = /Execution context was destroyed|navigation|Cannot find context/i;
/** How long a page or context whose call failed as "closed" may take to report its own close event. */
const CLOSE_EVENT_WAIT_MS = 2_000;

/**
 * A remote session: its own BrowserContext (cookies, proxy, viewport) in the relay's Chromium. Acts with
 * trusted input (the runtime finds the element, page.mouse/page.keyboard act on it) and waits for the
 * page to settle after each action.
 */
export class PlaywrightDriver implements BrowserDriver {
  readonly kind = 'playwright';
  private closing = false;
  private readonly goneListeners: ((reason: GoneReason) => void)[] = [];
  private readonly events: PageEvents;
  private readonly settler: SettleTracker;
  private readonly scripts: ScriptWatch;
  /** Elements of the last snapshot, by index: how to type into each. */
  private lastElements = new Map<number, SnapshotElement>();
  /** Each tab's latest top-level document response status (redirects included, the last one wins). */
  private readonly statuses = new WeakMap<Page, number>();

  /** Top-level page loads that failed, newest last (a short window: only the latest few matter). */
  private readonly failedLoads: FailedLoad[] = [];
  private failedLoadCount = 0;
  private readonly loadFailedWaiters: (() => void)[] = [];

  private constructor(
    private readonly context: BrowserContext,
    first: Page,
    private readonly options: PlaywrightDriverOptions,
  ) {
    // Indices belong to one document: a different tab makes the last snapshot's elements meaningless.
    this.events = new PageEvents(context, first, () => this.lastElements.clear());
    const sessions = new PageSessions(context, first, options.logger);
    this.settler = new SettleTracker(context, sessions);
    this.scripts = new ScriptWatch(sessions, {
      hangMs: options.scriptTimeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS,
      logger: options.logger,
      onStop: (message) => this.events.push({ kind: 'script_stopped', message }),
    });
    context.on('response', (response) => {
      const request = response.request();
      if (!request.isNavigationRequest()) return;
      try {
        const frame = request.frame();
        if (frame.parentFrame() === null) this.statuses.set(frame.page(), response.status());
      } catch {
        // a service worker's or a gone frame's response: not a tab's document
      }
    });
    context.on('close', () => {
      options.egress?.release();
      if (this.closing) return;
      this.closing = true;
      for (const listener of this.goneListeners) listener('browser_crashed');
    });
    // The browser only sees a failed tunnel or an empty answer; the egress proxy recorded why.
    context.on('requestfailed', (request) => {
      if (!request.isNavigationRequest()) return;
      try {
        if (request.frame().parentFrame() !== null) return;
      } catch {
        return; // a service worker's request has no frame
      }
      const url = request.url();
      this.failedLoads.push({ n: ++this.failedLoadCount, url, failure: options.egress?.failures.find(url, 0) });
      if (this.failedLoads.length > 8) this.failedLoads.shift();
      for (const wake of this.loadFailedWaiters.splice(0)) wake();
    });
  }

  static async open(host: BrowserHost, options: PlaywrightDriverOptions): Promise<PlaywrightDriver> {
    let context: BrowserContext;
    try {
      context = await host.newContext({
        viewport: options.viewport,
        acceptDownloads: false,
        ...(options.egress ? { proxy: options.egress.proxy } : {}),
        ...(options.storageState ? { storageState: options.storageState } : {}),
      });
    } catch (error) {
      options.egress?.release();
      throw error;
    }
    try {
      context.setDefaultNavigationTimeout(options.navigationTimeoutMs);
      context.setDefaultTimeout(options.navigationTimeoutMs);
      await installPageRuntime(context);
      const page = await context.newPage();
      return new PlaywrightDriver(context, page, options);
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /** Resolves once a top-level load failed after `loadsBefore`, or after a short grace if none does. */
  private async failedLoadAfter(loadsBefore: number): Promise<void> {
    if (this.failedLoadCount > loadsBefore) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.loadFailedWaiters.push(resolve);
      timer = setTimeout(resolve, FAILED_LOAD_EVENT_GRACE_MS);
    });
    clearTimeout(timer);
  }

  /** The newest top-level load that failed after `loadsBefore` with a reason the egress proxy recorded after `mark`. */
  private failedLoadSince(loadsBefore: number, mark: number): { url: string; failure: EgressFailure } | undefined {
    const failures = this.options.egress?.failures;
    if (!failures) return undefined;
    for (const load of this.failedLoads.filter((l) => l.n > loadsBefore).reverse()) {
      const failure = load.failure && load.failure.seq > mark ? load.failure : failures.find(load.url, mark);
      if (failure) return { url: load.url, failure };
    }
    return undefined;
  }

  private get page(): Page {
    return this.events.page;
  }

  async navigate(url: string): Promise<void> {
    await this.guard(async () => {
      const mark = this.options.egress?.failures.mark() ?? 0;
      const loadsBefore = this.failedLoadCount;
      try {
        await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.options.navigationTimeoutMs });
      } catch (error) {
        if (this.closing) throw error;
        const failed = this.failedLoadSince(loadsBefore, mark);
        if (!failed) throw new NavigationFailed(url, describeNavigationError(error, this.options.navigationTimeoutMs));
        // Chromium goes on to commit its error page: let it, so the next navigation is not cut short by it.
        await this.page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => undefined);
        // A redirect can lead elsewhere: name the URL that was refused when it is not the one asked for.
        const reason = failed.url === url ? failed.failure.reason : `it led to ${failed.url}: ${failed.failure.reason}`;
        if (failed.failure.kind === 'guardrail') throw new GuardrailRefused(url, reason);
        throw failed.failure.kind === 'private'
          ? new NavigationRefused(url, reason)
          : new NavigationFailed(url, reason);
      }
      await this.page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => undefined);
    });
  }

  async back(): Promise<boolean> {
    const moved = await this.historyStep(() => this.page.goBack({ waitUntil: 'domcontentloaded' }));
    // The about:blank every new page starts at is not a page of the session: back there is the start.
    if (moved && this.page.url() === 'about:blank') {
      await this.guard(() => this.page.goForward({ waitUntil: 'domcontentloaded' }));
      return false;
    }
    return moved;
  }

  async forward(): Promise<boolean> {
    return this.historyStep(() => this.page.goForward({ waitUntil: 'domcontentloaded' }));
  }

  /** Playwright answers null both for "no such page" and for a same-document step; the URL tells them apart. */
  private async historyStep(step: () => Promise<unknown>): Promise<boolean> {
    const before = this.page.url();
    const response = await this.guard(step);
    return response !== null || this.page.url() !== before;
  }

  url(): string {
    const url = this.page.url();
    return url === 'about:blank' ? '' : url;
  }

  httpStatus(): number | undefined {
    return this.statuses.get(this.page);
  }

  title(): Promise<string> {
    return this.guard(() => this.page.title());
  }

  async snapshot(options: Partial<SnapshotOptions> = {}): Promise<Snapshot> {
    return this.guard(async () => {
      try {
        return this.remember(await runtimeSnapshot(this.page, options));
      } catch (error) {
        // The document changed under us (a late redirect): wait for the new one, then once more.
        if (!DOCUMENT_GONE.test(String(error))) throw error;
        await this.page.waitForLoadState('domcontentloaded').catch(() => undefined);
        return this.remember(await runtimeSnapshot(this.page, options));
      }
    });
  }

  async content(options: DriverContentOptions = {}): Promise<PageContent> {
    const { scroll_to_bottom_ms, settle_ms, ...runtimeOptions } = options;
    return this.guard(async () => {
      if (settle_ms) await this.page.waitForLoadState('networkidle', { timeout: settle_ms }).catch(() => undefined);
      const scrolled = scroll_to_bottom_ms
        ? await runtimeScrollToBottom(this.page, scroll_to_bottom_ms).then(({ reached_bottom, ms }) => ({
            scrolled: { reached_bottom, ms },
          }))
        : {};
      try {
        return { ...(await runtimeContent(this.page, runtimeOptions)), ...scrolled };
      } catch (error) {
        // The document changed under us (a late redirect): wait for the new one, then once more.
        if (!DOCUMENT_GONE.test(String(error))) throw error;
        await this.page.waitForLoadState('domcontentloaded').catch(() => undefined);
        return { ...(await runtimeContent(this.page, runtimeOptions)), ...scrolled };
      }
    });
  }

  async act(action: Action): Promise<DriverActionResult> {
    const result = await this.guard(async () => {
      const mark = this.settler.mark();
      const page = this.page;
      const failuresMark = this.options.egress?.failures.mark() ?? 0;
      const loadsBefore = this.failedLoadCount;
      const urlBefore = this.url();
      let outcome: ActionResult;
      try {
        outcome = await this.perform(action);
      } catch (error) {
        if (error instanceof NavigationFailed) throw error;
        if (CONTEXT_GONE.test(String(error))) {
          // A handler that closes its own tab (window.close() on click) can end the tab before the
          // trusted input finished: the action worked, and the session goes on in the tab before it.
          if (!(await this.closedItself(page))) throw error;
          outcome = { code: 'ok', message: `The page closed its own tab in response to ${action.action}.` };
        } else if (DOCUMENT_GONE.test(String(error))) {
          // The action took the document away mid-call: that is a navigation, not a failure.
          outcome = { code: 'navigation', message: `The page navigated after ${action.action}.` };
        } else throw error;
      }
      const { navigated } = await this.settler.settle(() => this.page, mark, this.options.navigationTimeoutMs);
      // The error page can be up before the failed request's event arrives: wait for the event.
      if (this.page.url().startsWith('chrome-error:') && !urlBefore.startsWith('chrome-error:')) {
        await this.failedLoadAfter(loadsBefore);
      }
      const failed = this.failedLoadSince(loadsBefore, failuresMark);
      if (failed) {
        // Chromium shows its error page for a failed load; the agent is better off where it was.
        if (this.page.url().startsWith('chrome-error:')) {
          await this.page.goBack({ waitUntil: 'domcontentloaded' }).catch(() => undefined);
        }
        const { url, failure } = failed;
        const why =
          failure.kind === 'private'
            ? `which was not opened: ${failure.reason}, and ${PRIVATE_NETWORK_HINT}`
            : failure.kind === 'guardrail'
              ? `which was not opened: ${failure.reason}`
              : `which could not be opened: ${failure.reason}`;
        const refusal: ActionResult = {
          code: 'invalid_target',
          message: `${outcome.message} It led to ${url}, ${why}. Still at ${this.url() || urlBefore}.`,
        };
        return refusal;
      }
      if (navigated && outcome.code === 'ok' && page === this.page) {
        outcome = {
          ...outcome,
          code: 'navigation',
          url: this.url(),
          message: `${outcome.message} The page navigated to ${this.url()}.${statusNote(this.httpStatus())}`,
        };
      } else if (navigated && outcome.code === 'navigation' && page === this.page && !SAYS_STATUS.has(action.action)) {
        outcome = { ...outcome, message: outcome.message + statusNote(this.httpStatus()) };
      }
      return outcome;
    });
    return { ...result, events: this.events.drain() };
  }

  tabs(): Promise<TabInfo[]> {
    return this.guard(() => this.events.tabs());
  }

  screenshot(options: ScreenshotOptions = {}): Promise<Buffer> {
    const { marks, jpegQuality } = options;
    const capture = () =>
      this.page.screenshot({
        timeout: this.options.navigationTimeoutMs,
        ...(jpegQuality ? { type: 'jpeg' as const, quality: jpegQuality } : { type: 'png' as const }),
      });
    return this.guard(() => (marks?.length ? withMarks(this.page, marks, capture) : capture()));
  }

  /** What parking keeps: the page, cookies and storage, and the form fields a visitor changed. */
  async pageState(): Promise<PageState> {
    return this.guard(async () => {
      const forms = await runtimeReadForms(this.page).catch((error: unknown) => {
        this.options.logger.debug({ err: error }, 'form fields not read');
        return { fields: [], lost: ['the form fields (the page did not answer)'] };
      });
      return {
        url: this.url(),
        viewport: this.page.viewportSize() ?? this.options.viewport,
        storage: await this.context.storageState(),
        forms,
        otherTabs: this.context.pages().length - 1,
      };
    });
  }

  /** Refills form fields kept by pageState on the page as it is now. */
  restoreForms(fields: readonly FieldValue[]): Promise<{ restored: number; missing: number }> {
    return this.guard(() => runtimeWriteForms(this.page, fields));
  }

  setDialogPolicy(policy: DialogPolicy): void {
    this.events.dialogs = policy;
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
    this.options.egress?.release();
  }

  private remember(snapshot: Snapshot): Snapshot {
    this.lastElements = new Map(snapshot.elements.map((element) => [element.index, element]));
    return snapshot;
  }

  private async perform(action: Action): Promise<ActionResult> {
    const navigation = await navigationAction(this, action, this.options.checkUrl);
    if (navigation) return navigation;
    switch (action.action) {
      case 'wait':
        return this.wait(action);
      case 'click':
        return this.click(action);
      case 'hover':
        return this.withPoint(action.index, async (x, y) => {
          await this.page.mouse.move(x, y);
          return { code: 'ok', message: `Hovered over ${this.named(action.index)}.` };
        });
      case 'type':
        return this.type(action);
      case 'press_key':
        return this.pressKey(action);
      case 'switch_tab':
        return this.switchTab(action);
      default:
        // select_option, check, scroll, focus: the runtime does these as well as a person would.
        return runtimeAct(this.page, action);
    }
  }

  private async click(action: ActionOf<'click'>): Promise<ActionResult> {
    const element = this.lastElements.get(action.index);
    if (element?.tag === 'input' && element.attributes.type === 'file') {
      return { code: 'unsupported', message: fileFieldRefusal(action.index) };
    }
    return this.withPoint(action.index, async (x, y) => {
      await this.page.mouse.click(x, y, { clickCount: action.double ? 2 : 1 });
      return { code: 'ok', message: clickedMessage(this.named(action.index)) };
    });
  }

  /** Trusted keystrokes into a field the runtime focused: works with React/Vue inputs and key handlers alike. */
  private async type(action: ActionOf<'type'>): Promise<ActionResult> {
    // Fields the keyboard cannot fill well (date, color, range, select...) are left to the runtime's setter.
    if (!this.takesKeystrokes(action.index)) return runtimeAct(this.page, action);
    const focused = await runtimeAct(this.page, { action: 'focus', index: action.index });
    if (focused.code !== 'ok') return focused;
    if (!this.takesKeystrokes(action.index)) return runtimeAct(this.page, action);
    const keyboard = this.page.keyboard;
    // As the schema's default and the runtime: absent means replace.
    if (action.clear !== false) {
      await keyboard.press('ControlOrMeta+A');
      await keyboard.press('Backspace');
    }
    await keyboard.type(action.text);
    // A page may swallow keystrokes (a key handler that prevents them): then the runtime's setter is
    // tried, and it says plainly when the field did not take the text, rather than "Typed" for nothing.
    const value = await this.focusedValue();
    if (value !== undefined && !fieldTookText(value, action.text)) return runtimeAct(this.page, action);
    if (action.submit) await keyboard.press('Enter');
    // Worded by the shared input policy, from the field itself, as the runtime and the extension do.
    const element = this.lastElements.get(action.index);
    const type = element?.attributes.type?.toLowerCase();
    return typeOutcome({
      target: this.named(action.index),
      kind: element?.tag === 'input' ? type || 'text' : (element?.tag ?? 'text'),
      value: value ?? action.text, // unreadable: taken as typed
      asked: action.text,
      secret: isSecretInput(element?.tag ?? '', type),
      submitted: action.submit === true,
    });
  }

  /** The focused field's value (editable content: its text, whitespace collapsed); undefined when unreadable. */
  private async focusedValue(): Promise<string | undefined> {
    const value = await this.page
      .evaluate<unknown>(
        `(() => { const a = document.activeElement; if (!a) return undefined; if ('value' in a) return String(a.value); return a.isContentEditable ? (a.innerText || '').replace(/\\s+/g, ' ').trim() : undefined; })()`,
      )
      .catch(() => undefined);
    return typeof value === 'string' ? value : undefined;
  }

  /** `<button "Sign in"> [5]`: the element as the last snapshot named it, as the runtime's messages do. */
  private named(index: number): string {
    const element = this.lastElements.get(index);
    if (!element) return `[${index}]`;
    const name = element.name.length > 40 ? `${element.name.slice(0, 39)}…` : element.name;
    return `<${element.tag}${name ? ` "${name}"` : ''}> [${index}]`;
  }

  /** Makes tab `action.tab` (its number in tabs()) the session's page. */
  private async switchTab(action: ActionOf<'switch_tab'>): Promise<ActionResult> {
    const tabs = await this.events.tabs();
    if (!this.events.switchTo(action.tab)) {
      const list = tabs.map((t) => `[${t.index}] ${t.url}`).join(', ');
      return { code: 'invalid_target', message: `There is no tab [${action.tab}]; the open tabs are ${list}.` };
    }
    // A background tab may not render or run timers at full speed; the one the agent works in is in front.
    await this.page.bringToFront();
    const url = this.url();
    const title = await this.page.title().catch(() => '');
    // `navigation`: the page the agent sees changed, so the rest of the step's actions must not run on it.
    return {
      code: 'navigation',
      url,
      message: `Switched to tab [${action.tab}]${title ? ` "${title}"` : ''} at ${url}; take a new snapshot.`,
    };
  }

  private async pressKey(action: ActionOf<'press_key'>): Promise<ActionResult> {
    if (action.index !== undefined) {
      const focused = await runtimeAct(this.page, { action: 'focus', index: action.index });
      if (focused.code !== 'ok') return focused;
    }
    const combo = [...action.modifiers, action.key].join('+');
    await this.page.keyboard.press(combo);
    return {
      code: 'ok',
      message: pressedMessage(combo, action.index !== undefined ? this.named(action.index) : undefined),
    };
  }

  private async wait(action: ActionOf<'wait'>): Promise<ActionResult> {
    // Waiting for text reads the page, which is the runtime's job.
    if (action.until_text) return runtimeAct(this.page, action);
    const ms = Math.min(action.ms ?? DEFAULT_WAIT_MS, MAX_WAIT_MS);
    // The one deliberate fixed wait: the agent asked for time to pass.
    await this.page.waitForTimeout(ms);
    return { code: 'ok', message: `Waited ${ms} ms.` };
  }

  /**
   * Whether trusted keystrokes fill this element: text-like inputs, textareas and contenteditable, as
   * the last snapshot described it. Unknown elements go to the runtime, which knows the page.
   */
  private takesKeystrokes(index: number): boolean {
    const element = this.lastElements.get(index);
    if (!element) return false;
    return takesKeystrokes(element.tag, element.attributes.type?.toLowerCase(), element.editable === true);
  }

  /** Finds the element's clickable point with the runtime, then acts there with trusted input. */
  private async withPoint(index: number, act: (x: number, y: number) => Promise<ActionResult>): Promise<ActionResult> {
    const point = await runtimeElementPoint(this.page, index);
    if (point.code !== 'ok') return point as ActionResult;
    const { x, y } = point as { x: number; y: number };
    return act(x, y);
  }

  /**
   * Whether `page` closed by itself while the session's browser and context live on (other tabs left).
   * Playwright may report the failed call before the page's close event: wait (bounded) for the event.
   */
  private async closedItself(page: Page): Promise<boolean> {
    if (!page.isClosed()) await page.waitForEvent('close', { timeout: CLOSE_EVENT_WAIT_MS }).catch(() => undefined);
    const browserUp = this.context.browser()?.isConnected() ?? true;
    return page.isClosed() && !this.closing && browserUp && this.events.count > 0;
  }

  /** Runs a page operation, turning "target closed" errors into BrowserGone; a script that never yields is stopped. */
  private async guard<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closing) throw new BrowserGone('the session was closed');
    try {
      return await this.scripts.watch(() => this.page, operation());
    } catch (error) {
      if (error instanceof NavigationFailed) throw error;
      if (error instanceof PageStuck) {
        const url = error.page.url();
        this.lastElements.clear();
        throw new PageUnresponsive(url, error.stops, await this.events.replace(error.page, this.context));
      }
      const text = error instanceof Error ? error.message : String(error);
      if (CONTEXT_GONE.test(text) && !this.closing) {
        // A call can fail before the context reports its end (Chromium killed mid-action): wait for that
        // report (bounded), so the session ends as crashed and this operation says so, whichever came first.
        await this.context.waitForEvent('close', { timeout: CLOSE_EVENT_WAIT_MS }).catch(() => undefined);
      }
      if (this.closing || CONTEXT_GONE.test(text)) throw new BrowserGone(text.split('\n')[0] ?? 'closed');
      throw error;
    }
  }
}
