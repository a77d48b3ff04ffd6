import {
  type Action,
  type ActionOf,
  type DialogPolicy,
  type PageContent,
  SECRET_PLACEHOLDER,
  type Snapshot,
  type SnapshotOptions,
  secretPlaceholder,
} from '@tandem/shared';
import { writtenForms } from '../redact';
import { type SecretValue, secretAllowedOn } from '../store/account-secrets';
import type {
  BrowserDriver,
  DriverActionResult,
  DriverContentOptions,
  GoneReason,
  ScreenshotOptions,
  TabInfo,
  Viewport,
} from './driver';

/**
 * A session's driver with its secrets kept: the agent types `<secret:name>` and this layer types the
 * value, only on a site the secret allows; every value it ever typed or was given is replaced by its
 * placeholder in what comes back (snapshots, results, events, URLs, titles, content), whichever driver
 * is underneath. A page that copies a typed value into its text therefore still shows the placeholder.
 */
export class SecretDriver implements BrowserDriver {
  readonly kind: BrowserDriver['kind'];
  /** The secrets the current operation may type. */
  #usable = new Map<string, SecretValue>();
  /** Every written form of every value seen in this session → its placeholder, longest first. */
  #masks: [form: string, placeholder: string][] = [];
  /**
   * Per page URL, the elements a secret was typed into: painted over in every screenshot of that page,
   * since a field that shows its text (not a password field) would put the value in the image. Keyed by
   * URL, not cleared on navigation: after a tab switch and back the field still holds the value.
   */
  #holding = new Map<string, Set<number>>();

  constructor(private readonly inner: BrowserDriver) {
    this.kind = inner.kind;
  }

  /**
   * Makes `secrets` typeable for the operation about to run. Their values stay masked for the rest of the
   * session, since a page may show them again later (values live in memory only, never in the store).
   */
  arm(secrets: ReadonlyMap<string, SecretValue>): void {
    this.#usable = new Map(secrets);
    const masks = new Map(this.#masks);
    for (const [name, secret] of secrets) {
      for (const form of writtenForms(secret.value)) if (form) masks.set(form, secretPlaceholder(name));
    }
    this.#masks = [...masks].sort(([a], [b]) => b.length - a.length);
  }

  /** Ends the operation: nothing is typeable until the next `arm`. */
  disarm(): void {
    this.#usable = new Map();
  }

  /** `text` with every known secret value replaced by its placeholder. */
  maskText(text: string): string {
    let out = text;
    for (const [form, placeholder] of this.#masks) if (out.includes(form)) out = out.split(form).join(placeholder);
    return out;
  }

  /** A copy of `value` with every string in it masked. */
  mask<T>(value: T): T {
    if (this.#masks.length === 0) return value;
    return this.#maskDeep(value) as T;
  }

  #maskDeep(value: unknown): unknown {
    if (typeof value === 'string') return this.maskText(value);
    if (Array.isArray(value)) return value.map((item) => this.#maskDeep(item));
    if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.#maskDeep(item)]));
    }
    return value;
  }

  async act(action: Action): Promise<DriverActionResult> {
    if (action.action !== 'type' || !action.text.includes('<secret:')) return this.mask(await this.inner.act(action));
    const typed = this.#substitute(action);
    if (typeof typed === 'string') return { code: 'invalid_target', message: typed, events: [] };
    try {
      // Marked before typing: a field that already took some keys must be covered even if the action then fails.
      this.#holdingHere(true)?.add(typed.index);
      return this.mask(await this.inner.act(typed));
    } catch (error) {
      // A driver's error may quote what it was asked to type.
      if (error instanceof Error) error.message = this.maskText(error.message);
      throw error;
    }
  }

  /** The indices holding secrets on the current page (made when `create`). */
  #holdingHere(create = false): Set<number> | undefined {
    const url = this.inner.url();
    let indices = this.#holding.get(url);
    if (!indices && create) {
      indices = new Set();
      this.#holding.set(url, indices);
    }
    return indices;
  }

  /** The type action with its placeholders' values, or why it may not be typed here. */
  #substitute(action: ActionOf<'type'>): ActionOf<'type'> | string {
    let host = '';
    try {
      host = new URL(this.inner.url()).hostname;
    } catch {
      // No page yet: only a secret allowed everywhere may be typed.
    }
    const problems: string[] = [];
    const text = action.text.replace(SECRET_PLACEHOLDER, (placeholder, name: string) => {
      const secret = this.#usable.get(name);
      if (!secret) {
        problems.push(
          `${placeholder} is not available in this call: only secrets named in the cmd can be typed (stored ones, or ones given in optional_params.secrets of the same call)`,
        );
      } else if (!secretAllowedOn(secret, host)) {
        problems.push(
          `secret "${name}" may not be typed on host ${host || '(no page)'}: its site pattern is "${secret.hostPattern}"`,
        );
      }
      return secret?.value ?? placeholder;
    });
    if (problems.length > 0) return `Nothing was typed: ${problems.join('; ')}.`;
    return { ...action, text };
  }

  async snapshot(options?: Partial<SnapshotOptions>): Promise<Snapshot> {
    return this.mask(await this.inner.snapshot(options));
  }

  async content(options?: DriverContentOptions): Promise<PageContent> {
    return this.mask(await this.inner.content(options));
  }

  async title(): Promise<string> {
    return this.maskText(await this.inner.title());
  }

  url(): string {
    return this.maskText(this.inner.url());
  }

  async tabs(): Promise<TabInfo[]> {
    return this.mask(await this.inner.tabs());
  }

  navigate(url: string): Promise<void> {
    return this.inner.navigate(url);
  }

  back(): Promise<boolean> {
    return this.inner.back();
  }

  forward(): Promise<boolean> {
    return this.inner.forward();
  }

  httpStatus(): number | undefined {
    return this.inner.httpStatus();
  }

  /**
   * The capture with every field a secret was typed into painted over (where the field is at capture
   * time). A page that copies the value elsewhere on screen is not caught: images are not read back.
   */
  screenshot(options: ScreenshotOptions = {}): Promise<Buffer> {
    const holding = this.#holdingHere();
    if (!holding?.size) return this.inner.screenshot(options);
    // The runtime finds each field's box at capture time; none is known here.
    const covers = [...holding].map((index) => ({ index, box: { x: 0, y: 0, width: 0, height: 0 }, cover: true }));
    const marks = (options.marks ?? []).filter((mark) => !holding.has(mark.index));
    return this.inner.screenshot({ ...options, marks: [...marks, ...covers] });
  }

  setDialogPolicy(policy: DialogPolicy): void {
    this.inner.setDialogPolicy(policy);
  }

  setViewport(viewport: Viewport): Promise<void> {
    return this.inner.setViewport(viewport);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  onGone(listener: (reason: GoneReason) => void): void {
    this.inner.onGone(listener);
  }
}
