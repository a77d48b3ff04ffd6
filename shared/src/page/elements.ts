import { closest, getAttr, getComputedStyleOf, getRect, hasAttr } from './dom-intrinsics';
import { strLower, toNumber } from './intrinsics';
import { collapseWhitespace } from './text';
import { hidesSubtree } from './visibility';

/** ARIA roles that take input; an element with one is interactive whatever its tag. */
const INTERACTIVE_ROLES: Record<string, true> = {
  button: true,
  link: true,
  tab: true,
  checkbox: true,
  radio: true,
  switch: true,
  menuitem: true,
  menuitemcheckbox: true,
  menuitemradio: true,
  option: true,
  combobox: true,
  listbox: true,
  textbox: true,
  searchbox: true,
  slider: true,
  spinbutton: true,
  treeitem: true,
  gridcell: true,
};

export function isWidgetRole(role: string): boolean {
  return INTERACTIVE_ROLES[role] === true;
}

const NATIVE: Record<string, true> = { button: true, select: true, textarea: true, summary: true };

/** Why an element is offered to the agent; `scroll` containers are shown as a header, not a tag with text. */
export type InteractiveKind = 'control' | 'scroll';

export function roleOf(el: Element): string | null {
  const role = getAttr(el, 'role');
  return role ? strLower(role) : null;
}

/** True when the label's form control is itself not shown (custom checkboxes hide the real input). */
function labelStandsInForControl(label: HTMLLabelElement): boolean {
  const control = label.control;
  if (!control) return false;
  const style = getComputedStyleOf(control);
  if (hidesSubtree(style) || style.visibility === 'hidden') return true;
  const r = getRect(control);
  return r.width * r.height < 4;
}

function isScrollable(el: Element, style: CSSStyleDeclaration, tag: string): boolean {
  if (tag === 'html' || tag === 'body' || tag === 'textarea' || tag === 'select') return false;
  const oy = style.overflowY;
  if (oy !== 'auto' && oy !== 'scroll') return false;
  return el.scrollHeight > el.clientHeight + 2;
}

/**
 * Whether the agent can act on the element. Covers native controls, ARIA widgets, contenteditable
 * roots, focusable elements, click handlers we can see (`onclick`, a pointer cursor that does not just
 * inherit from the parent, except on list items: each item of a clickable list or tree is its own
 * target), labels standing in for hidden inputs, and scrollable containers.
 */
export function interactiveKind(
  el: Element,
  tag: string,
  style: CSSStyleDeclaration,
  parentCursor: string,
): InteractiveKind | null {
  if (tag === 'a') return hasAttr(el, 'href') ? 'control' : roleOrHandler(el, style, parentCursor);
  if (NATIVE[tag] === true) return 'control';
  if (tag === 'input') return (el as HTMLInputElement).type === 'hidden' ? null : 'control';
  if (tag === 'label') return labelStandsInForControl(el as HTMLLabelElement) ? 'control' : null;
  const html = el as HTMLElement;
  if (html.isContentEditable && !(html.parentElement?.isContentEditable ?? false)) return 'control';
  const found = roleOrHandler(el, style, parentCursor);
  if (found) return found;
  return isScrollable(el, style, tag) ? 'scroll' : null;
}

function roleOrHandler(el: Element, style: CSSStyleDeclaration, parentCursor: string): InteractiveKind | null {
  const role = roleOf(el);
  if (role && isWidgetRole(role)) return 'control';
  const tabindex = getAttr(el, 'tabindex');
  if (tabindex !== null && tabindex !== '-1' && toNumber(tabindex) >= 0) return 'control';
  if (hasAttr(el, 'onclick') || typeof (el as HTMLElement).onclick === 'function') return 'control';
  if (style.cursor === 'pointer' && (parentCursor !== 'pointer' || isIconLeaf(el) || el.localName === 'li'))
    return 'control';
  return null;
}

/** Empty elements icon fonts and sprites draw on (`<i class="fa fa-trash">`, `<span class="star">`). */
const ICON_TAGS: Record<string, true> = { i: true, span: true, div: true, em: true, b: true, s: true, u: true };
/** Larger than this, an empty clickable is a panel or an overlay, not an icon. */
const ICON_MAX_PX = 64;

/**
 * A small empty element inside a clickable row is a separate action (a trash can or a star in a
 * message row) even though its pointer cursor is inherited; inside a link or a button it is only
 * part of that control.
 */
function isIconLeaf(el: Element): boolean {
  if (ICON_TAGS[el.localName] !== true || el.childElementCount > 0) return false;
  const text = el.textContent;
  if (text !== null && text.length > 0 && collapseWhitespace(text) !== '') return false;
  const r = getRect(el);
  if (r.width === 0 || r.height === 0 || r.width > ICON_MAX_PX || r.height > ICON_MAX_PX) return false;
  return closest(el, 'a[href], button, [role=button], [role=link], label') === null;
}
