import type { ActionOf, ActionResult } from '../../actions/index';
import { typeOutcome } from '../../actions/input-policy';
import {
  docGetById,
  docQueryAll,
  elQueryAll,
  getAttr,
  getComputedStyleOf,
  getRect,
  matches,
  nodeContains,
  setOptionSelected,
  sleep,
} from '../dom-intrinsics';
import { append, dateNow, joinStrings, strIndexOf, strLower } from '../intrinsics';
import type { ElementRegistry } from '../registry';
import { capText, collapseWhitespace } from '../text';
import { hidesSelf, hidesSubtree } from '../visibility';
import { inputEvent, plainEvent } from './events';
import { pressEnter } from './keyboard';
import { clickTarget } from './pointer';
import { describe, result } from './results';
import { isTarget, resolveTarget, type Target } from './target';
import { isSecret, type TextField, textFieldOf, typeIntoEditable, typeIntoField } from './typing';

export function type(registry: ElementRegistry, top: Window, action: ActionOf<'type'>): ActionResult {
  const target = resolveTarget(registry, top, action.index);
  if (!isTarget(target)) return target;
  const field = textFieldOf(target.el);
  if (!field) return result('invalid_target', `${describe(target.el)} [${action.index}] does not take text.`);
  if ((field as TextField).readOnly === true) return result('not_interactable', `${describe(field)} is read-only.`);
  if (matches(field, ':disabled')) return result('not_interactable', `${describe(field)} is disabled.`);
  const clear = action.clear !== false;
  const isField = field.localName === 'input' || field.localName === 'textarea';
  if (isField) typeIntoField(field as TextField, action.text, clear);
  else typeIntoEditable(field, action.text, clear);
  // Read before Enter, as the trusted drivers do: a submitted form may clear or replace the field.
  const value = isField ? (field as TextField).value : collapseWhitespace(field.innerText ?? '');
  if (action.submit === true) pressEnter(field, {});
  const outcome = typeOutcome({
    target: `${describe(field)} [${action.index}]`,
    kind: isField ? ((field as HTMLInputElement).type ?? 'text') : field.localName,
    value,
    asked: action.text,
    secret: isSecret(field),
    submitted: action.submit === true,
  });
  return outcome.code === 'ok' && isSecret(field)
    ? result(outcome.code, outcome.message)
    : result(outcome.code, outcome.message, { value });
}

function optionMatch(text: string, value: string, wanted: string): number {
  if (text === wanted) return 4;
  if (value === wanted) return 3;
  const t = strLower(text);
  const w = strLower(collapseWhitespace(wanted));
  if (t === w) return 2;
  return w && strIndexOf(t, w) >= 0 ? 1 : 0;
}

function selectNative(select: HTMLSelectElement, wanted: string, index: number): ActionResult {
  let best: HTMLOptionElement | null = null;
  let bestScore = 0;
  const names: string[] = [];
  for (let i = 0; i < select.options.length; i++) {
    const opt = select.options[i] as HTMLOptionElement;
    const text = collapseWhitespace(opt.text);
    append(names, text);
    const score = optionMatch(text, opt.value, wanted);
    if (score > bestScore) {
      best = opt;
      bestScore = score;
    }
  }
  if (!best) {
    return result(
      'invalid_target',
      `${describe(select)} [${index}] has no option "${wanted}"; its options are: ${capText(joinStrings(names, ', '), 300)}.`,
    );
  }
  if (best.disabled) return result('not_interactable', `Option "${best.text}" is disabled.`);
  setOptionSelected(best, true);
  inputEvent(select, 'input', 'insertReplacementText', null);
  plainEvent(select, 'change');
  const chosen = collapseWhitespace(best.text);
  return result('ok', `Selected "${chosen}" in ${describe(select)} [${index}].`, { value: chosen });
}

function isShown(el: Element): boolean {
  const style = getComputedStyleOf(el);
  if (hidesSubtree(style) || hidesSelf(style)) return false;
  const r = getRect(el);
  return r.width > 0 && r.height > 0;
}

/** Visible elements whose own text is the wanted option: ARIA options first, then the deepest match. */
function findVisibleOption(root: Document | Element, wanted: string): Element | null {
  const w = strLower(collapseWhitespace(wanted));
  const query = (sel: string) =>
    root.nodeType === 9 ? docQueryAll(root as Document, sel) : elQueryAll(root as Element, sel);
  const lists = ['[role=option], [role=menuitem], [role=menuitemradio]', 'li, [data-value], a, button, div, span'];
  for (let l = 0; l < lists.length; l++) {
    const found = query(lists[l] as string);
    let match: Element | null = null;
    for (let i = 0; i < found.length; i++) {
      const el = found[i] as Element;
      if (strLower(collapseWhitespace(el.textContent ?? '')) !== w || !isShown(el)) continue;
      // Deepest match: a later match inside the current one is more specific.
      if (!match || nodeContains(match, el)) match = el;
    }
    if (match) return match;
  }
  return null;
}

/** Custom dropdowns: open it by clicking, then click the option once it is rendered (bounded wait). */
async function selectCustom(
  registry: ElementRegistry,
  top: Window,
  target: Target,
  wanted: string,
  index: number,
): Promise<ActionResult> {
  const el = target.el;
  const listRoot = getAttr(el, 'role') === 'listbox' ? el : null;
  if (!listRoot && getAttr(el, 'aria-expanded') !== 'true') clickTarget(target);
  const controls = getAttr(el, 'aria-controls');
  const deadline = dateNow() + 1500;
  for (;;) {
    const scope: Document | Element =
      listRoot ?? (controls ? docGetById(el.ownerDocument, controls) : null) ?? el.ownerDocument;
    const option = findVisibleOption(scope, wanted);
    if (option) {
      const reg = registry.indexFor(option).index;
      const optTarget = resolveTarget(registry, top, reg);
      if (!isTarget(optTarget)) return optTarget;
      clickTarget(optTarget);
      return result(
        'ok',
        `Opened ${describe(el)} [${index}] and chose "${capText(collapseWhitespace(option.textContent ?? ''), 60)}".`,
        {
          value: collapseWhitespace(option.textContent ?? ''),
        },
      );
    }
    if (dateNow() > deadline) break;
    await sleep(50);
  }
  return result('invalid_target', `No visible option "${wanted}" appeared after opening ${describe(el)} [${index}].`);
}

export async function selectOption(
  registry: ElementRegistry,
  top: Window,
  action: ActionOf<'select_option'>,
): Promise<ActionResult> {
  const target = resolveTarget(registry, top, action.index);
  if (!isTarget(target)) return target;
  const el = target.el;
  if (el.localName === 'select') return selectNative(el as HTMLSelectElement, action.option, action.index);
  const inner = el.localName === 'label' ? (el as HTMLLabelElement).control : null;
  if (inner?.localName === 'select') return selectNative(inner as HTMLSelectElement, action.option, action.index);
  return selectCustom(registry, top, target, action.option, action.index);
}

const CHECKABLE_ROLES: Record<string, true> = {
  checkbox: true,
  switch: true,
  radio: true,
  menuitemcheckbox: true,
  menuitemradio: true,
};

function readChecked(el: Element): { checked: boolean; radio: boolean } | null {
  const control = el.localName === 'label' ? (el as HTMLLabelElement).control : el;
  if (control?.localName === 'input') {
    const input = control as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio')
      return { checked: input.checked, radio: input.type === 'radio' };
  }
  const role = getAttr(el, 'role');
  if (role && CHECKABLE_ROLES[role] === true) {
    return { checked: getAttr(el, 'aria-checked') === 'true', radio: role === 'radio' || role === 'menuitemradio' };
  }
  return null;
}

export function check(registry: ElementRegistry, top: Window, action: ActionOf<'check'>): ActionResult {
  const target = resolveTarget(registry, top, action.index);
  if (!isTarget(target)) return target;
  const wanted = action.checked !== false;
  const state = readChecked(target.el);
  const name = `${describe(target.el)} [${action.index}]`;
  if (!state) return result('invalid_target', `${name} is not a checkbox, radio button or switch; click it instead.`);
  if (state.checked === wanted) return result('ok', `${name} was already ${wanted ? 'checked' : 'unchecked'}.`);
  if (state.radio && !wanted) {
    return result('invalid_target', `${name} is a radio button; choose another option of its group instead.`);
  }
  clickTarget(target);
  const after = readChecked(target.el);
  if (!after || after.checked !== wanted) return result('not_interactable', `Clicking ${name} did not change it.`);
  return result('ok', `${name} is now ${wanted ? 'checked' : 'unchecked'}.`);
}
