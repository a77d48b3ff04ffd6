import { getAttr, getComputedStyleOf, matches } from './dom-intrinsics';
import type { ElementStates } from './schema';
import { hidesSubtree } from './visibility';

function ariaBool(el: Element, name: string): boolean | 'mixed' | undefined {
  const v = getAttr(el, name);
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'mixed') return 'mixed';
  return undefined;
}

/** The states the model needs to choose an action: checked, selected, expanded, disabled, and so on. */
export function elementStates(el: Element, tag: string, focused: Element | null): ElementStates {
  const states: ElementStates = {};
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') {
      states.checked = input.indeterminate ? 'mixed' : input.checked;
    }
    if (input.type === 'password' && input.value.length > 0) states.filled = true;
  } else {
    const aria = ariaBool(el, 'aria-checked');
    if (aria !== undefined) states.checked = aria;
  }
  if (tag === 'label') {
    const control = (el as HTMLLabelElement).control;
    // tagName, not instanceof: the label may live in an iframe, another realm.
    if (control?.tagName === 'INPUT') {
      const input = control as HTMLInputElement;
      if (input.type === 'checkbox' || input.type === 'radio') states.checked = input.checked;
    }
  }
  const selected = ariaBool(el, 'aria-selected');
  if (selected === true) states.selected = true;
  const expanded = ariaBool(el, 'aria-expanded');
  if (expanded !== undefined && expanded !== 'mixed') states.expanded = expanded;
  if (tag === 'summary' && el.parentElement?.tagName === 'DETAILS') {
    states.expanded = (el.parentElement as HTMLDetailsElement).open;
  }
  if (states.expanded === undefined && (tag === 'li' || getAttr(el, 'role') === 'treeitem')) {
    // A tree or menu item without ARIA that holds a list: open while the list shows (file trees, nested menus).
    const list = nestedList(el);
    if (list) states.expanded = !hidesSubtree(getComputedStyleOf(list));
  }
  const pressed = ariaBool(el, 'aria-pressed');
  if (pressed !== undefined) states.pressed = pressed;
  if (matches(el, ':disabled') || getAttr(el, 'aria-disabled') === 'true') states.disabled = true;
  if ((tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).readOnly) states.readonly = true;
  if (getAttr(el, 'aria-readonly') === 'true') states.readonly = true;
  if (matches(el, ':required') || getAttr(el, 'aria-required') === 'true') states.required = true;
  if (el === focused) states.focused = true;
  return states;
}

/** Renders states as bare words after the attributes: `checked disabled collapsed`. */
export function renderStates(states: ElementStates): string {
  let out = '';
  const word = (w: string) => {
    out += ` ${w}`;
  };
  if (states.checked === true) word('checked');
  else if (states.checked === 'mixed') word('checked=mixed');
  if (states.selected) word('selected');
  if (states.expanded !== undefined) word(states.expanded ? 'expanded' : 'collapsed');
  if (states.pressed !== undefined) word(`pressed=${states.pressed}`);
  if (states.disabled) word('disabled');
  if (states.readonly) word('readonly');
  if (states.required) word('required');
  if (states.filled) word('filled');
  if (states.focused) word('focused');
  return out;
}

/** Children looked at for an item's nested list: the list follows the item's own label. */
const MAX_ITEM_CHILDREN = 6;

function nestedList(item: Element): Element | null {
  const children = item.children;
  for (let i = 0; i < children.length && i < MAX_ITEM_CHILDREN; i++) {
    const child = children[i] as Element;
    if (child.localName === 'ul' || child.localName === 'ol' || getAttr(child, 'role') === 'group') return child;
  }
  return null;
}
