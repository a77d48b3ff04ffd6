import type { ActionOf, ActionResult } from '../../actions/index';
import { clickedMessage, fileFieldRefusal } from '../../actions/input-policy';
import { elScrollBy, getAttr, getComputedStyleOf, winScrollBy } from '../dom-intrinsics';
import { mathAbs, mathRound, strLower } from '../intrinsics';
import type { ElementRegistry } from '../registry';
import { clickEvents, hoverEvents, leaveEvents } from './events';
import { describe, result, staleElement } from './results';
import { isTarget, resolveTarget, type Target } from './target';

/** Clicks a resolved target with synthetic events. */
export function clickTarget(target: Target, count = 1): void {
  clickEvents(target.el, target.local, count);
}

export function click(registry: ElementRegistry, top: Window, action: ActionOf<'click'>): ActionResult {
  const target = resolveTarget(registry, top, action.index);
  if (!isTarget(target)) return target;
  // A file chooser would wait for a person (and the remote driver refuses it the same way).
  if (target.el.localName === 'input' && strLower(getAttr(target.el, 'type') ?? '') === 'file') {
    return result('unsupported', fileFieldRefusal(action.index));
  }
  clickTarget(target, action.double ? 2 : 1);
  return result('ok', clickedMessage(`${describe(target.el)} [${action.index}]`));
}

/** The element the pointer is over, so the next hover can send it the leave events. */
let hovered: { el: Element; at: { x: number; y: number } } | null = null;

export function hover(registry: ElementRegistry, top: Window, action: ActionOf<'hover'>): ActionResult {
  const target = resolveTarget(registry, top, action.index);
  if (!isTarget(target)) return target;
  if (hovered && hovered.el !== target.el && hovered.el.isConnected) leaveEvents(hovered.el, hovered.at);
  hoverEvents(target.el, target.local);
  hovered = { el: target.el, at: target.local };
  return result(
    'ok',
    `Moved the pointer over ${describe(target.el)} [${action.index}] (synthetic: CSS :hover styles need the driver's mouse).`,
  );
}

function scrollableAncestor(el: Element): Element | null {
  let node: Element | null = el;
  while (node && node !== node.ownerDocument.documentElement && node !== node.ownerDocument.body) {
    const oy = getComputedStyleOf(node).overflowY;
    if ((oy === 'auto' || oy === 'scroll') && node.scrollHeight > node.clientHeight + 2) return node;
    node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null);
  }
  return null;
}

function pagesText(px: number, viewport: number): string {
  return `${px}px (${mathRound((px / viewport) * 10) / 10} pages)`;
}

export function scroll(registry: ElementRegistry, top: Window, action: ActionOf<'scroll'>): ActionResult {
  const amount = typeof action.amount === 'number' && action.amount > 0 ? action.amount : 1;
  const sign = action.direction === 'up' ? -1 : 1;
  let container: Element | null = null;
  let win = top;
  if (action.index !== undefined) {
    const el = registry.lookup(action.index);
    if (!el) return staleElement(action.index);
    container = scrollableAncestor(el);
    win = el.ownerDocument.defaultView ?? top;
  }
  if (container) {
    const before = container.scrollTop;
    elScrollBy(container, { top: sign * amount * container.clientHeight, behavior: 'instant' });
    const moved = mathRound(mathAbs(container.scrollTop - before));
    const rest = mathRound(
      action.direction === 'up'
        ? container.scrollTop
        : container.scrollHeight - container.clientHeight - container.scrollTop,
    );
    if (moved === 0)
      return result('ok', `${describe(container)} is already at the ${action.direction === 'up' ? 'top' : 'bottom'}.`);
    return result(
      'ok',
      `Scrolled ${describe(container)} ${action.direction} ${moved}px; ${rest}px more ${action.direction === 'up' ? 'above' : 'below'}.`,
    );
  }
  const before = win.scrollY;
  winScrollBy(win, { top: sign * amount * win.innerHeight, behavior: 'instant' });
  const moved = mathRound(mathAbs(win.scrollY - before));
  const root = win.document.scrollingElement ?? win.document.documentElement;
  const rest = mathRound(action.direction === 'up' ? win.scrollY : root.scrollHeight - win.innerHeight - win.scrollY);
  if (moved === 0) return result('ok', `The page is already at the ${action.direction === 'up' ? 'top' : 'bottom'}.`);
  return result(
    'ok',
    `Scrolled the page ${action.direction} ${moved}px; ${pagesText(rest < 0 ? 0 : rest, win.innerHeight)} ${action.direction === 'up' ? 'above' : 'below'}.`,
  );
}
