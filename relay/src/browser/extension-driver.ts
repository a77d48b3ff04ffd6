import {
  type Action,
  type ActionResult,
  type CommandName,
  type CommandParams,
  type CommandResult,
  DEFAULT_WAIT_MS,
  type DialogPolicy,
  MAX_WAIT_MS,
  type PageContent,
  type Snapshot,
  type SnapshotOptions,
  type TabState,
} from '@tandem/shared';
import { ExtensionCommandError } from '../gateway/errors';
import type { ExtensionGateway } from '../gateway/gateway';
import type { Logger } from '../logger';
import { DISMISS_DIALOGS, pageEvent } from './dialogs';
import type {
  BrowserDriver,
  DriverActionResult,
  DriverContentOptions,
  GoneReason,
  PageEvent,
  ScreenshotOptions,
  TabInfo,
  Viewport,
} from './driver';
import { BrowserGone, NavigationFailed } from './errors';
import { statusNote } from './http-status';
import { navigationAction } from './navigation-actions';

export interface ExtensionDriverOptions {
  gateway: ExtensionGateway;
  accountId: string;
  deviceId: string;
  sessionId: string;
  navigationTimeoutMs: number;
  logger: Logger;
  /** Checks a URL the agent wants to open (scheme); throws to refuse. */
  checkUrl?: (url: string) => Promise<unknown>;
  /**
   * The account's guardrails. The tab is the user's browser, whose requests the relay does not see: a
   * page an action led to on a refused host is left at once (back), and the agent hears why.
   */
  refuseHost?: ((hostname: string) => string | undefined) | undefined;
}

/** Time for commands that load a page, on top of the navigation timeout. */
const COMMAND_SLACK_MS = 5_000;
const QUICK_COMMAND_MS = 15_000;

/**
 * A local session: one tab in the user's browser, driven through the extension gateway. Snapshots and
 * element actions run in the shared page runtime inside the tab (synthetic events); navigation goes
 * through the tabs API. Implements the same interface as PlaywrightDriver.
 */
export class ExtensionDriver implements BrowserDriver {
  readonly kind = 'extension';
  private closing = false;
  private currentUrl = '';
  private currentTitle = '';
  private currentStatus: number | undefined;
  private dialogs: DialogPolicy = DISMISS_DIALOGS;
  /** What the page did by itself, reported by the extension with an action, for the step's result. */
  private pendingEvents: PageEvent[] = [];
  private readonly goneListeners: ((reason: GoneReason) => void)[] = [];

  private constructor(
    private readonly options: ExtensionDriverOptions,
    readonly tabId: number,
    state: TabState,
  ) {
    this.remember(state);
    options.gateway.bindSession({
      sessionId: options.sessionId,
      accountId: options.accountId,
      deviceId: options.deviceId,
      tabId,
      gone: (reason) => this.gone(reason),
    });
  }

  /** Opens the session's tab (in a tab group named for the session) at `url`. */
  static async open(url: string, options: ExtensionDriverOptions): Promise<ExtensionDriver> {
    const state = await call(options, 'tab.open', { sessionId: options.sessionId, url }, loadTimeout(options));
    return new ExtensionDriver(options, state.tabId, state);
  }

  async navigate(url: string): Promise<void> {
    this.remember(await this.command('navigate', { tabId: this.tabId, url }, loadTimeout(this.options)));
  }

  async back(): Promise<boolean> {
    const state = await this.command('back', { tabId: this.tabId }, loadTimeout(this.options));
    this.remember(state);
    return state.moved;
  }

  async forward(): Promise<boolean> {
    const state = await this.command('forward', { tabId: this.tabId }, loadTimeout(this.options));
    this.remember(state);
    return state.moved;
  }

  url(): string {
    return this.currentUrl;
  }

  httpStatus(): number | undefined {
    return this.currentStatus;
  }

  async title(): Promise<string> {
    this.remember(await this.command('tab.info', { tabId: this.tabId }, QUICK_COMMAND_MS));
    return this.currentTitle;
  }

  snapshot(options: Partial<SnapshotOptions> = {}): Promise<Snapshot> {
    return this.command('snapshot', { tabId: this.tabId, options }, QUICK_COMMAND_MS);
  }

  content(options: DriverContentOptions = {}): Promise<PageContent> {
    const { scroll_to_bottom_ms, settle_ms, ...runtimeOptions } = options;
    const params = {
      tabId: this.tabId,
      options: runtimeOptions,
      ...(scroll_to_bottom_ms !== undefined ? { scroll_to_bottom_ms: Math.round(scroll_to_bottom_ms) } : {}),
      ...(settle_ms !== undefined ? { settle_ms: Math.round(settle_ms) } : {}),
    };
    return this.command('content', params, QUICK_COMMAND_MS + (scroll_to_bottom_ms ?? 0) + (settle_ms ?? 0));
  }

  async act(action: Action): Promise<DriverActionResult> {
    const result = await this.perform(action);
    return { ...result, events: this.pendingEvents.splice(0) };
  }

  async tabs(): Promise<TabInfo[]> {
    return [{ index: 0, url: this.currentUrl, title: this.currentTitle, active: true }];
  }

  async screenshot(options: ScreenshotOptions = {}): Promise<Buffer> {
    const params = {
      tabId: this.tabId,
      ...(options.marks?.length ? { marks: [...options.marks] } : {}),
      ...(options.jpegQuality ? { jpeg_quality: options.jpegQuality } : {}),
    };
    const { png } = await this.command('screenshot', params, QUICK_COMMAND_MS);
    return Buffer.from(png, 'base64');
  }

  /** The tab lives in the user's window, whose size is the user's: browser_params are not applied. */
  async setViewport(viewport: Viewport): Promise<void> {
    this.options.logger.debug({ viewport }, 'viewport ignored in local mode');
  }

  setDialogPolicy(policy: DialogPolicy): void {
    this.dialogs = policy;
  }

  onGone(listener: (reason: GoneReason) => void): void {
    this.goneListeners.push(listener);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.options.gateway.unbindSession(this.options.sessionId);
    await call(this.options, 'tab.close', { tabId: this.tabId }, QUICK_COMMAND_MS).catch((error: unknown) =>
      this.options.logger.debug({ err: error }, 'tab close failed'),
    );
  }

  private async perform(action: Action): Promise<ActionResult> {
    const navigation = await navigationAction(this, action, this.options.checkUrl);
    if (navigation) return navigation;
    switch (action.action) {
      case 'wait':
        if (action.until_text) break;
        {
          const ms = Math.min(action.ms ?? DEFAULT_WAIT_MS, MAX_WAIT_MS);
          // The one deliberate fixed wait: the agent asked for time to pass. It is timed here, not in the
          // tab, where a background tab's timers are throttled; an empty wait in the tab then collects
          // what the page did meanwhile (dialogs, downloads), as the remote driver's listeners do.
          await new Promise((resolve) => setTimeout(resolve, ms));
          const outcome = await this.performInTab({ action: 'wait', ms: 0 } as Action);
          return { ...outcome, message: outcome.message.replace('Waited 0 ms.', `Waited ${ms} ms.`) };
        }
      case 'switch_tab':
        // A local session owns exactly one tab of the user's browser (DESIGN §5); it never adopts others.
        return action.tab === 0
          ? { code: 'ok', message: 'Already on tab [0], the only tab of this session.' }
          : {
              code: 'unsupported',
              message: `There is no tab [${action.tab}]: a local session works in its one tab [0] and never switches to the user's other tabs.`,
            };
      default:
        break;
    }
    return this.performInTab(action);
  }

  /** An action the extension runs in the tab, with what the page did meanwhile. */
  private async performInTab(action: Action): Promise<ActionResult> {
    const result = await this.command(
      'act',
      { tabId: this.tabId, action, dialogs: this.dialogs },
      loadTimeout(this.options),
    );
    const { navigated, tabUrl, status, events, ...outcome } = result;
    this.pendingEvents.push(...(events ?? []).map(pageEvent));
    this.currentUrl = displayUrl(tabUrl);
    if (navigated) this.currentStatus = status;
    const refusal = navigated ? this.refusalOf(this.currentUrl) : undefined;
    if (refusal) {
      const led = this.currentUrl;
      await this.back().catch(() => false);
      return {
        code: 'invalid_target',
        message: `${outcome.message} It led to ${led}, which was not kept open: ${refusal}. Back at ${this.currentUrl}.`,
      };
    }
    if (navigated && outcome.code === 'ok') {
      return {
        ...outcome,
        code: 'navigation',
        url: this.currentUrl,
        message: `${outcome.message} The page navigated to ${this.currentUrl}.${statusNote(status)}`,
      };
    }
    if (navigated && outcome.code === 'navigation')
      return { ...outcome, message: outcome.message + statusNote(status) };
    return outcome;
  }

  private refusalOf(url: string): string | undefined {
    try {
      return this.options.refuseHost?.(new URL(url).hostname);
    } catch {
      return undefined; // about:blank and the like: no host to refuse
    }
  }

  private remember(state: TabState): void {
    this.currentUrl = displayUrl(state.url);
    this.currentTitle = state.title;
    this.currentStatus = state.status;
  }

  private gone(reason: GoneReason): void {
    if (this.closing) return;
    this.closing = true;
    for (const listener of this.goneListeners) listener(reason);
  }

  /** Sends a command; a closed tab ends the session, and the caller hears BrowserGone. */
  private async command<C extends CommandName>(
    command: C,
    params: CommandParams<C>,
    timeoutMs: number,
  ): Promise<CommandResult<C>> {
    if (this.closing) throw new BrowserGone('the session was closed');
    try {
      return await call(this.options, command, params, timeoutMs);
    } catch (error) {
      if (error instanceof ExtensionCommandError && error.extensionCode === 'tab_closed') {
        this.options.gateway.unbindSession(this.options.sessionId);
        this.gone('closed_in_browser');
        throw new BrowserGone('the tab was closed in the browser');
      }
      throw error;
    }
  }
}

function call<C extends CommandName>(
  options: ExtensionDriverOptions,
  command: C,
  params: CommandParams<C>,
  timeoutMs: number,
): Promise<CommandResult<C>> {
  return options.gateway.request(options.deviceId, command, params, timeoutMs).catch((error: unknown) => {
    if (error instanceof ExtensionCommandError && error.extensionCode === 'navigation_failed') {
      const url = 'url' in params ? String(params.url) : 'the page';
      throw new NavigationFailed(url, error.message);
    }
    throw error;
  });
}

function loadTimeout(options: ExtensionDriverOptions): number {
  return options.navigationTimeoutMs + COMMAND_SLACK_MS;
}

function displayUrl(url: string): string {
  return url === 'about:blank' ? '' : url;
}
