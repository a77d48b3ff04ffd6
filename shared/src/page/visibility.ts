import {
  closest,
  docElementFromPoint,
  docQueryAll,
  getComputedStyleOf,
  getRect,
  getRootNode,
  matches,
  nodeContains,
  shadowElementFromPoint,
} from './dom-intrinsics';
import { type Box, type FrameContext, intersect } from './geometry';

/** True when the element and everything inside it is not rendered (prune the subtree). */
export function hidesSubtree(style: CSSStyleDeclaration): boolean {
  return style.display === 'none' || style.contentVisibility === 'hidden' || style.opacity === '0';
}

/** True when the element itself is invisible; its children may still override `visibility`. */
export function hidesSelf(style: CSSStyleDeclaration): boolean {
  return style.visibility === 'hidden' || style.visibility === 'collapse';
}

/** Inert subtrees (the `inert` attribute) take no input, so nothing in them is offered to the agent. */
export function isInert(el: Element): boolean {
  return closest(el, '[inert]') !== null;
}

/**
 * The modal that makes the rest of the document unreachable: a `<dialog>` opened with showModal(),
 * or a visible `aria-modal="true"` element. Null when none is open.
 */
export function findModal(doc: Document): Element | null {
  const dialogs = docQueryAll(doc, 'dialog[open]');
  for (let i = 0; i < dialogs.length; i++) {
    const d = dialogs[i] as Element;
    if (matches(d, ':modal')) return d;
  }
  const aria = docQueryAll(doc, '[aria-modal="true"]');
  for (let i = 0; i < aria.length; i++) {
    const el = aria[i] as Element;
    const style = getComputedStyleOf(el);
    if (hidesSubtree(style) || hidesSelf(style)) continue;
    const r = getRect(el);
    if (r.width > 0 && r.height > 0) return el;
  }
  return null;
}

/** Sample points of a box: its center first, then four inner points, so a partly covered element passes. */
function samplePoints(box: Box): number[] {
  const xs = [0.5, 0.25, 0.75, 0.25, 0.75];
  const ys = [0.5, 0.25, 0.25, 0.75, 0.75];
  const out: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    out[out.length] = box.x + box.width * (xs[i] as number);
    out[out.length] = box.y + box.height * (ys[i] as number);
  }
  return out;
}

function hits(el: Element, hit: Element | null): boolean {
  return hit !== null && (hit === el || nodeContains(el, hit));
}

export type HitTest =
  /** A point (top-viewport coordinates) where a click lands on the element. */
  | { kind: 'visible'; x: number; y: number }
  /** The element is in the viewport but something else is on top of it everywhere we looked. */
  | { kind: 'covered'; by: Element | null }
  /** The element is outside the viewport: it cannot be hit-tested without scrolling. */
  | { kind: 'offscreen' };

/** Finds where a pointer would land on the element, using the browser's own hit-testing. */
export function hitTest(el: Element, box: Box, ctx: FrameContext): HitTest {
  const visible = intersect(box, ctx.clip);
  if (!visible) return { kind: 'offscreen' };
  const root = getRootNode(el);
  const points = samplePoints(visible);
  let by: Element | null = null;
  for (let i = 0; i < points.length; i += 2) {
    const x = points[i] as number;
    const y = points[i + 1] as number;
    // elementFromPoint takes coordinates of the element's own document viewport.
    const lx = x - ctx.offsetX;
    const ly = y - ctx.offsetY;
    const hit =
      root.nodeType === 11
        ? shadowElementFromPoint(root as ShadowRoot, lx, ly)
        : docElementFromPoint(el.ownerDocument, lx, ly);
    if (hits(el, hit)) return { kind: 'visible', x, y };
    by ??= hit;
  }
  return { kind: 'covered', by };
}
