import { getComputedStyleOf, getRect } from './dom-intrinsics';
import { mathMax, mathMin, parseFloatNumber } from './intrinsics';

/** A rectangle in CSS pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where one document sits inside the top window's viewport. */
export interface FrameContext {
  win: Window;
  doc: Document;
  /** Add to a rect of this document to get top-viewport coordinates. */
  offsetX: number;
  offsetY: number;
  /** The part of the top viewport this document's viewport shows, in top coordinates. */
  clip: Box;
  /** How many same-origin iframes deep this document is (0 for the top document). */
  depth: number;
}

export function topFrameContext(win: Window): FrameContext {
  return {
    win,
    doc: win.document,
    offsetX: 0,
    offsetY: 0,
    clip: { x: 0, y: 0, width: win.innerWidth, height: win.innerHeight },
    depth: 0,
  };
}

export function intersect(a: Box, b: Box): Box | null {
  const x = mathMax(a.x, b.x);
  const y = mathMax(a.y, b.y);
  const right = mathMin(a.x + a.width, b.x + b.width);
  const bottom = mathMin(a.y + a.height, b.y + b.height);
  if (right <= x || bottom <= y) return null;
  return { x, y, width: right - x, height: bottom - y };
}

/** The content box of a same-origin iframe as a frame context nested in `parent`. */
export function childFrameContext(iframe: HTMLIFrameElement, parent: FrameContext): FrameContext | null {
  const win = iframe.contentWindow;
  const doc = iframe.contentDocument;
  if (!win || !doc) return null;
  const rect = getRect(iframe);
  const style = getComputedStyleOf(iframe);
  const left = rect.left + iframe.clientLeft + (parseFloatNumber(style.paddingLeft) || 0);
  const top = rect.top + iframe.clientTop + (parseFloatNumber(style.paddingTop) || 0);
  const offsetX = parent.offsetX + left;
  const offsetY = parent.offsetY + top;
  const own = { x: offsetX, y: offsetY, width: win.innerWidth, height: win.innerHeight };
  const clip = intersect(own, parent.clip) ?? { x: offsetX, y: offsetY, width: 0, height: 0 };
  return { win, doc, offsetX, offsetY, clip, depth: parent.depth + 1 };
}

/**
 * The frame context of any element's document, climbing `frameElement` to the top window.
 * Elements in a cross-origin frame never reach the runtime, so the climb always succeeds.
 */
export function frameContextOf(el: Element, top: Window): FrameContext {
  const win = el.ownerDocument.defaultView;
  if (!win || win === top) return topFrameContext(top);
  const chain: HTMLIFrameElement[] = [];
  let w: Window | null = win;
  while (w && w !== top) {
    const frame = w.frameElement as HTMLIFrameElement | null;
    if (!frame) break;
    chain[chain.length] = frame;
    w = frame.ownerDocument.defaultView;
  }
  let ctx = topFrameContext(top);
  for (let i = chain.length - 1; i >= 0; i--) {
    const next = childFrameContext(chain[i] as HTMLIFrameElement, ctx);
    if (!next) break;
    ctx = next;
  }
  return ctx;
}

/** The element's border box in top-viewport coordinates. */
export function topBox(el: Element, ctx: FrameContext): Box {
  const r = getRect(el);
  return { x: r.left + ctx.offsetX, y: r.top + ctx.offsetY, width: r.width, height: r.height };
}
