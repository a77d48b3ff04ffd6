import type { Action, DialogPolicy, PageContent, Snapshot, SnapshotOptions } from '@tandem/shared';
import type { Logger } from '../logger';
import type {
  BrowserDriver,
  DriverActionResult,
  DriverContentOptions,
  GoneReason,
  ScreenshotOptions,
  TabInfo,
  Viewport,
} from './driver';
import { BrowserGone } from './errors';
import type { PageState, PlaywrightDriver } from './playwright-driver';

/** Opens the session's browser again, with what parking kept (cookies, storage, viewport). */
export type Reopen = (state: PageState) => Promise<PlaywrightDriver>;

/**
 * A remote session's browser that can be parked: its context closed to free memory, with what it needs
 * to come back kept (URL, cookies, local storage, viewport, the form fields a visitor changed). Any use
 * of a parked driver revives it first, so parking is invisible to callers but for the time it takes;
 * `revive()` answers what came back and what could not, for the step to say.
 */
export class ParkingDriver implements BrowserDriver {
  readonly kind = 'playwright';
  private live: PlaywrightDriver | undefined;
  private state: PageState | undefined;
  /** The park or revive under way: every other use waits for it. */
  private turn: Promise<unknown> = Promise.resolve();
  private closed = false;
  private dialogs: DialogPolicy | undefined;
  private readonly goneListeners: ((reason: GoneReason) => void)[] = [];
  /** What the last revive said, until taken (a revive that a use triggered by itself). */
  private notice: string | undefined;

  constructor(
    driver: PlaywrightDriver | undefined,
    private readonly reopen: Reopen,
    private readonly logger: Logger,
    /** For a session parked earlier (the store kept it): what its first use opens again. */
    parkedState?: PageState,
  ) {
    if (driver) this.attach(driver);
    this.state = parkedState;
  }

  /** Whether the context is closed and the session waits to be revived. */
  get parked(): boolean {
    return this.state !== undefined;
  }

  /** What a parked session will open again (undefined while live). */
  get parkedState(): PageState | undefined {
    return this.state;
  }

  /**
   * Keeps what the session needs and closes its context. False when it was not parked (already parked,
   * closed, or its page could not be read: then it stays live rather than lose its state).
   */
  park(): Promise<boolean> {
    return this.exclusive(async () => {
      if (this.closed || this.state || !this.live) return false;
      const live = this.live;
      let state: PageState;
      try {
        state = await live.pageState();
      } catch (error) {
        this.logger.warn({ err: error }, 'session not parked: its page could not be read');
        return false;
      }
      this.state = state;
      this.live = undefined;
      await live.close();
      return true;
    });
  }

  /** Opens a parked session again where it was; what came back and what did not, in words (undefined: it was live). */
  revive(): Promise<string | undefined> {
    return this.exclusive(() => this.reviveNow());
  }

  /** The notice of a revive that a use of the driver triggered, once. */
  takeNotice(): string | undefined {
    const notice = this.notice;
    this.notice = undefined;
    return notice;
  }

  private async reviveNow(): Promise<string | undefined> {
    const state = this.state;
    if (!state || this.closed) return undefined;
    const driver = await this.reopen(state);
    if (this.dialogs) driver.setDialogPolicy(this.dialogs);
    let forms = { restored: 0, missing: state.forms.fields.length };
    let failure: string | undefined;
    try {
      if (state.url) await driver.navigate(state.url);
      forms = await driver.restoreForms(state.forms.fields);
    } catch (error) {
      if (error instanceof BrowserGone) {
        await driver.close();
        throw error;
      }
      // The site is down or refuses now: the session comes back (cookies and all) on the page it got.
      failure = error instanceof Error ? error.message : String(error);
    }
    this.state = undefined;
    this.attach(driver);
    this.notice = reviveNotice(state, forms, failure);
    this.logger.info({ url: state.url, forms }, 'session revived');
    return this.notice;
  }

  /** Runs park or revive alone; uses of the driver wait for it. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.turn.then(work, work);
    this.turn = next.catch(() => undefined);
    return next;
  }

  /** The live driver, reviving a parked session first. */
  private async ready(): Promise<PlaywrightDriver> {
    await this.turn;
    if (this.closed) throw new BrowserGone('the session was closed');
    if (this.state) await this.exclusive(() => this.reviveNow());
    if (!this.live) throw new BrowserGone('the session was closed');
    return this.live;
  }

  private attach(driver: PlaywrightDriver): void {
    this.live = driver;
    driver.onGone((reason) => {
      // A context closed by parking is not gone; one that crashed while live is.
      if (this.live !== driver || this.closed) return;
      this.closed = true;
      for (const listener of this.goneListeners) listener(reason);
    });
  }

  async navigate(url: string): Promise<void> {
    return (await this.ready()).navigate(url);
  }

  async back(): Promise<boolean> {
    return (await this.ready()).back();
  }

  async forward(): Promise<boolean> {
    return (await this.ready()).forward();
  }

  url(): string {
    return this.state ? this.state.url : (this.live?.url() ?? '');
  }

  httpStatus(): number | undefined {
    return this.live?.httpStatus();
  }

  async title(): Promise<string> {
    return (await this.ready()).title();
  }

  async snapshot(options?: Partial<SnapshotOptions>): Promise<Snapshot> {
    return (await this.ready()).snapshot(options);
  }

  async content(options?: DriverContentOptions): Promise<PageContent> {
    return (await this.ready()).content(options);
  }

  async act(action: Action): Promise<DriverActionResult> {
    return (await this.ready()).act(action);
  }

  async tabs(): Promise<TabInfo[]> {
    return (await this.ready()).tabs();
  }

  async screenshot(options?: ScreenshotOptions): Promise<Buffer> {
    return (await this.ready()).screenshot(options);
  }

  async setViewport(viewport: Viewport): Promise<void> {
    await this.turn;
    if (this.state) {
      this.state.viewport = viewport;
      return;
    }
    await (await this.ready()).setViewport(viewport);
  }

  setDialogPolicy(policy: DialogPolicy): void {
    this.dialogs = policy;
    this.live?.setDialogPolicy(policy);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.state = undefined;
    await this.turn;
    const live = this.live;
    this.live = undefined;
    await live?.close();
  }

  onGone(listener: (reason: GoneReason) => void): void {
    this.goneListeners.push(listener);
  }
}

/** What a revived session tells the agent and the caller: it was reopened, and what did not come back. */
function reviveNotice(state: PageState, forms: { restored: number; missing: number }, failure?: string): string {
  if (failure)
    return `The session was parked while idle; reopening it, ${state.url} did not load again (${failure}). Its cookies and local storage are back; its form fields are not.`;
  const lost = [...state.forms.lost];
  if (forms.missing) lost.push(`${forms.missing} form field${forms.missing === 1 ? '' : 's'} no longer on the page`);
  if (state.otherTabs) lost.push(`${state.otherTabs} other tab${state.otherTabs === 1 ? '' : 's'}`);
  lost.push("the page's script state (anything not in its URL, cookies, local storage or form fields)");
  const refilled = forms.restored ? `, ${forms.restored} form field${forms.restored === 1 ? '' : 's'} refilled` : '';
  return `The session was parked while idle and has been reopened at ${state.url || 'its start page'} (cookies and local storage restored${refilled}). Not restored: ${lost.join('; ')}.`;
}
