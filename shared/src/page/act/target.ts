import type { ActionResult } from '../../actions/index';
import { checkVisibility, elScrollIntoView, getAttr, getComputedStyleOf, matches } from '../dom-intrinsics';
import { type Box, type FrameContext, frameContextOf, intersect, topBox } from '../geometry';
import type { ElementRegistry } from '../registry';
import { hidesSelf, hidesSubtree, hitTest, isInert } from '../visibility';
import type { LocalPoint } from './events';
import { describe, result, staleElement } from './results';

/** An element ready to act on: its frame and a point (local to its document) where input lands. */
export interface Target {
  el: Element;
  ctx: FrameContext;
  box: Box;
  /** Top-viewport point on the element, from hit-testing. */
  point: { x: number; y: number };
  local: LocalPoint;
}

function isRendered(el: Element): boolean {
  // checkVisibility covers display:none ancestors, content-visibility and closed <details>.
  if (checkVisibility && !checkVisibility(el, { checkOpacity: true, checkVisibilityCSS: true })) return false;
  const style = getComputedStyleOf(el);
  return !hidesSubtree(style) && !hidesSelf(style);
}

/**
 * Resolves an index to an element the user could act on: scrolls it into view when needed, then
 * checks it is rendered, enabled (unless `allowDisabled`) and not covered by another element.
 */
export function resolveTarget(
  registry: ElementRegistry,
  top: Window,
  index: number,
  opts: { allowDisabled?: boolean; scroll?: boolean } = {},
): Target | ActionResult {
  const el = registry.lookup(index);
  if (!el) return staleElement(index);
  if (!isRendered(el)) return result('not_interactable', `${describe(el)} [${index}] is hidden.`);
  if (isInert(el)) return result('not_interactable', `${describe(el)} [${index}] is behind a modal dialog.`);
  if (!opts.allowDisabled && (matches(el, ':disabled') || getAttr(el, 'aria-disabled') === 'true')) {
    return result('not_interactable', `${describe(el)} [${index}] is disabled.`);
  }
  let ctx = frameContextOf(el, top);
  let box = topBox(el, ctx);
  if (box.width === 0 || box.height === 0) return result('not_interactable', `${describe(el)} [${index}] has no size.`);
  if (opts.scroll !== false && !intersect(box, ctx.clip)) {
    elScrollIntoView(el, { block: 'center', inline: 'center', behavior: 'instant' });
    ctx = frameContextOf(el, top);
    box = topBox(el, ctx);
  }
  const hit = hitTest(el, box, ctx);
  if (hit.kind === 'covered') {
    const by = hit.by ? ` by ${describe(hit.by)}` : '';
    return result(
      'not_interactable',
      `${describe(el)} [${index}] is covered${by}; close or scroll past what covers it.`,
    );
  }
  const point =
    hit.kind === 'visible' ? { x: hit.x, y: hit.y } : { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  return { el, ctx, box, point, local: { x: point.x - ctx.offsetX, y: point.y - ctx.offsetY } };
}

export function isTarget(value: Target | ActionResult): value is Target {
  return (value as Target).el !== undefined;
}
