import type { ActionOf, ActionResult, KeyModifier } from '../../actions/index';
import { pressedMessage } from '../../actions/input-policy';
import {
  closest,
  dialogClose,
  docQueryAll,
  elQueryAll,
  formRequestSubmit,
  getComputedStyleOf,
  getRect,
  htmlFocus,
  inputSelect,
  listen,
  matches,
  textAreaSelect,
  unlisten,
  winScrollBy,
} from '../dom-intrinsics';
import { joinStrings, strSlice } from '../intrinsics';
import type { ElementRegistry } from '../registry';
import { hidesSelf, hidesSubtree } from '../visibility';
import { clickEvents, type KeyModifiers, keyEvent, plainEvent } from './events';
import { describe, result } from './results';
import { isTarget, resolveTarget } from './target';
import { setFieldValue, type TextField } from './typing';

const SUBMITTER = 'button[type=submit], button:not([type]), input[type=submit], input[type=image]';

function mods(list: readonly KeyModifier[] | undefined): KeyModifiers {
  const out: KeyModifiers = {};
  if (!list) return out;
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (m === 'Control') out.ctrlKey = true;
    else if (m === 'Shift') out.shiftKey = true;
    else if (m === 'Alt') out.altKey = true;
    else if (m === 'Meta') out.metaKey = true;
  }
  return out;
}

function isField(el: Element): el is TextField {
  if (el.localName === 'textarea') return true;
  if (el.localName !== 'input') return false;
  const t = (el as HTMLInputElement).type;
  return t !== 'checkbox' && t !== 'radio' && t !== 'button' && t !== 'submit' && t !== 'reset' && t !== 'file';
}

function center(el: Element): { x: number; y: number } {
  const r = getRect(el);
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** Implicit submission: Enter in a field submits its form through the default button, as browsers do. */
function submitImplicitly(field: HTMLInputElement): void {
  const form = field.form;
  if (!form) return;
  const buttons = elQueryAll(form, SUBMITTER);
  const submitter = (buttons[0] as HTMLButtonElement | HTMLInputElement | undefined) ?? null;
  if (submitter?.disabled) return;
  formRequestSubmit(form, submitter);
}

/** Enter with its default action: submit from a field, activate a button or link, newline in a textarea. */
export function pressEnter(el: Element, m: KeyModifiers): void {
  if (!keyEvent(el, 'keydown', 'Enter', m)) return;
  const go = keyEvent(el, 'keypress', 'Enter', m);
  if (go) {
    if (el.localName === 'textarea') {
      const ta = el as HTMLTextAreaElement;
      setFieldValue(ta, `${ta.value}\n`, 'insertLineBreak', null);
    } else if (el.localName === 'input' && isField(el)) {
      submitImplicitly(el as HTMLInputElement);
    } else if (matches(el, 'a[href], button, summary, [role=button], [role=link], [role=menuitem], [role=tab]')) {
      clickEvents(el, center(el), 1);
    }
  }
  keyEvent(el, 'keyup', 'Enter', m);
}

function tabbables(doc: Document): HTMLElement[] {
  const all = docQueryAll(
    doc,
    'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable=""], [contenteditable=true]',
  );
  const out: HTMLElement[] = [];
  for (let i = 0; i < all.length; i++) {
    const el = all[i] as HTMLElement;
    if (el.tabIndex < 0 || matches(el, ':disabled') || (el as HTMLInputElement).type === 'hidden') continue;
    const style = getComputedStyleOf(el);
    if (hidesSubtree(style) || hidesSelf(style)) continue;
    const r = getRect(el);
    if (r.width === 0 && r.height === 0) continue;
    out[out.length] = el;
  }
  return out;
}

/** Tab moves focus to the next tabbable element in document order (Shift+Tab: the previous one). */
function moveFocus(from: Element, back: boolean): Element | null {
  const list = tabbables(from.ownerDocument);
  if (list.length === 0) return null;
  let at = -1;
  for (let i = 0; i < list.length; i++) if (list[i] === from) at = i;
  let next: number;
  if (at === -1) next = back ? list.length - 1 : 0;
  else next = (at + (back ? -1 : 1) + list.length) % list.length;
  const el = list[next] as HTMLElement;
  htmlFocus(el);
  return el;
}

/** The default action of keys other than Enter, for synthetic presses (the browser ignores untrusted keys). */
function defaultAction(el: Element, key: string, m: KeyModifiers, win: Window): string {
  if (key === 'Tab') {
    const next = moveFocus(el, m.shiftKey === true);
    return next ? `; focus moved to ${describe(next)}` : '';
  }
  if (key === 'Escape') {
    const dialog = closest(el, 'dialog[open]') as HTMLDialogElement | null;
    if (dialog && plainEvent(dialog, 'cancel', true)) {
      dialogClose(dialog);
      return '; the dialog closed';
    }
    return '';
  }
  if (isField(el)) {
    const field = el as TextField;
    if ((m.ctrlKey || m.metaKey) && (key === 'a' || key === 'A')) {
      if (field.localName === 'textarea') textAreaSelect(field as HTMLTextAreaElement);
      else inputSelect(field as HTMLInputElement);
      return '; all text selected';
    }
    if (key === 'Backspace' && field.value) {
      setFieldValue(field, strSlice(field.value, 0, field.value.length - 1), 'deleteContentBackward', null);
      return '';
    }
    if (key.length === 1 && !m.ctrlKey && !m.metaKey && !m.altKey) {
      setFieldValue(field, field.value + key, 'insertText', key);
      return '';
    }
  }
  if (el.localName === 'select' && (key === 'ArrowDown' || key === 'ArrowUp')) {
    const select = el as HTMLSelectElement;
    const next = select.selectedIndex + (key === 'ArrowDown' ? 1 : -1);
    if (next >= 0 && next < select.options.length) {
      select.selectedIndex = next;
      plainEvent(select, 'input');
      plainEvent(select, 'change');
    }
    return '';
  }
  if (
    key === 'Space' &&
    matches(el, 'button, input[type=checkbox], input[type=radio], [role=button], [role=checkbox]')
  ) {
    clickEvents(el, center(el), 1);
    return '';
  }
  const pageKeys: Record<string, number> = { PageDown: 1, PageUp: -1, End: 1e7, Home: -1e7 };
  const step = pageKeys[key];
  if (step !== undefined && !isField(el)) {
    winScrollBy(win, { top: step * (step > -2 && step < 2 ? win.innerHeight : 1), behavior: 'instant' });
  }
  return '';
}

export function pressKey(registry: ElementRegistry, top: Window, action: ActionOf<'press_key'>): ActionResult {
  let el: Element;
  if (action.index !== undefined) {
    const target = resolveTarget(registry, top, action.index);
    if (!isTarget(target)) return target;
    el = target.el;
    if (el !== el.ownerDocument.activeElement) htmlFocus(el as HTMLElement, { preventScroll: true });
  } else {
    el = top.document.activeElement ?? top.document.body;
    while (el.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  }
  const m = mods(action.modifiers);
  const key = action.key === 'Space' ? ' ' : action.key;
  const combo = `${action.modifiers && action.modifiers.length > 0 ? `${joinStrings(action.modifiers, '+')}+` : ''}${action.key}`;
  const on = `${describe(el)}${action.index !== undefined ? ` [${action.index}]` : ''}`;
  if (action.key === 'Enter') {
    pressEnter(el, m);
    return result('ok', pressedMessage(combo, on));
  }
  let extra = '';
  if (keyEvent(el, 'keydown', key, m)) {
    if (key.length === 1) keyEvent(el, 'keypress', key, m);
    extra = defaultAction(el, action.key, m, el.ownerDocument.defaultView ?? top);
  }
  keyEvent(el, 'keyup', key, m);
  return result('ok', extra ? `Pressed ${combo} on ${on}${extra}.` : pressedMessage(combo, on));
}

export function focus(registry: ElementRegistry, top: Window, action: ActionOf<'focus'>): ActionResult {
  const target = resolveTarget(registry, top, action.index, { allowDisabled: true });
  if (!isTarget(target)) return target;
  // A page may move the focus away at once (a focus handler that blurs): it still got the focus.
  let reached = false;
  const onFocus = () => {
    reached = true;
  };
  listen(target.el, 'focus', onFocus, true);
  htmlFocus(target.el as HTMLElement, { preventScroll: true });
  unlisten(target.el, 'focus', onFocus, true);
  const focused = target.el.ownerDocument.activeElement === target.el;
  if (focused) return result('ok', `Focused ${describe(target.el)} [${action.index}].`);
  if (reached)
    return result('ok', `Focused ${describe(target.el)} [${action.index}]; the page then moved the focus away.`);
  return result('not_interactable', `${describe(target.el)} [${action.index}] cannot take focus.`);
}
