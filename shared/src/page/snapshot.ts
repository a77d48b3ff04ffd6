import { type FrameContext, topFrameContext } from './geometry';
import { mathMax, mathRound } from './intrinsics';
import type { ElementRegistry } from './registry';
import type { Snapshot, SnapshotOptions } from './schema';
import { Serializer } from './serialize';
import { fitToBudget, type Line } from './text-budget';

export const DEFAULT_MAX_CHARS = 40_000;
const MIN_MAX_CHARS = 500;

/** The focused element, looking through shadow roots and same-origin iframes. */
function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  for (let guard = 0; active && guard < 32; guard++) {
    const inner: Element | null | undefined =
      active.shadowRoot?.activeElement ??
      (active.localName === 'iframe' ? safeFrameDoc(active as HTMLIFrameElement)?.activeElement : null);
    if (!inner || inner === active) break;
    active = inner;
  }
  return active;
}

function safeFrameDoc(frame: HTMLIFrameElement): Document | null {
  try {
    return frame.contentDocument;
  } catch {
    return null;
  }
}

function pages(px: number, viewport: number): number {
  return viewport > 0 ? mathRound((px / viewport) * 10) / 10 : 0;
}

/** Takes a snapshot of the page the runtime lives in. */
export function takeSnapshot(win: Window, registry: ElementRegistry, options: Partial<SnapshotOptions>): Snapshot {
  const fullPage = options.full_page === true;
  const requested = options.max_chars;
  const maxChars =
    typeof requested === 'number' && requested > 0 ? mathMax(MIN_MAX_CHARS, requested) : DEFAULT_MAX_CHARS;
  const doc = win.document;
  const ctx: FrameContext = topFrameContext(win);
  registry.snapshots += 1;
  registry.prune();
  const result = new Serializer(registry, {
    fullPage,
    origin: win.location.origin === 'null' ? '' : win.location.origin,
    focused: deepActiveElement(doc),
    markNew: registry.snapshots > 1,
  }).run(ctx);

  const root = doc.scrollingElement ?? doc.documentElement;
  const height = win.innerHeight;
  const scrollY = win.scrollY;
  const above = mathMax(0, mathRound(scrollY));
  const below = mathMax(0, mathRound((root?.scrollHeight ?? 0) - scrollY - height));

  // A full-page snapshot is the whole page, so its edges need no markers; only where the viewport
  // sits is news (scroll actions are relative to it).
  const lines: Line[] = [];
  const top = fullPage
    ? above > 0
      ? `[full page; the viewport is ${above}px from the top]`
      : ''
    : above > 0
      ? `[${above}px (${pages(above, height)} pages) above the viewport]`
      : '[top of page]';
  if (top) lines[0] = { text: top, kind: 'marker', in_viewport: true };
  for (let i = 0; i < result.lines.length; i++) lines[lines.length] = result.lines[i] as Line;
  if (!fullPage) {
    const bottom =
      below === 0
        ? '[end of page]'
        : `[${below}px (${pages(below, height)} pages) below the viewport; scroll to see more]`;
    lines[lines.length] = { text: bottom, kind: 'marker', in_viewport: true };
  }
  const fitted = fitToBudget(lines, maxChars);

  return {
    url: win.location.href,
    title: doc.title,
    text: fitted.text,
    elements: result.elements,
    viewport: { width: win.innerWidth, height },
    scroll: {
      x: mathRound(win.scrollX),
      y: mathRound(scrollY),
      above_px: above,
      below_px: below,
      above_pages: pages(above, height),
      below_pages: pages(below, height),
    },
    frames: result.frames,
    modal: result.modal,
    truncated: fitted.truncated,
    omitted_chars: fitted.omitted_chars,
  };
}
