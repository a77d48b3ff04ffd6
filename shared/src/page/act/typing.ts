import { isSecretInput } from '../../actions/input-policy';
import {
  browserLanguage,
  docExecCommand,
  docGetSelection,
  elQuery,
  getAttr,
  htmlFocus,
  selectAllChildren,
  selectionCollapseToEnd,
  setInputValue,
  setTextAreaValue,
} from '../dom-intrinsics';
import { strLower, strSlice, strStartsWith } from '../intrinsics';
import { dateInputValue } from './dates';
import { inputEvent, keyEvent, plainEvent } from './events';

/** Input types typed character by character; the others (date, color, range...) take the whole value. */
const TEXT_TYPES: Record<string, true> = {
  text: true,
  search: true,
  email: true,
  url: true,
  tel: true,
  password: true,
};

export type TextField = HTMLInputElement | HTMLTextAreaElement;

/** The field text goes into: the element, its label's control, or a text field inside a wrapper. */
export function textFieldOf(el: Element): TextField | HTMLElement | null {
  const tag = el.localName;
  if (tag === 'textarea') return el as HTMLTextAreaElement;
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    return type === 'checkbox' || type === 'radio' || type === 'submit' || type === 'button' || type === 'file'
      ? null
      : (el as HTMLInputElement);
  }
  if ((el as HTMLElement).isContentEditable) return el as HTMLElement;
  if (tag === 'label') {
    const control = (el as HTMLLabelElement).control;
    return control ? textFieldOf(control) : null;
  }
  // A combobox or search widget indexed on its wrapper: type into the one field inside.
  const inner = elQuery(el, 'input:not([type=hidden]), textarea, [contenteditable=""], [contenteditable=true]');
  return inner ? textFieldOf(inner) : null;
}

/**
 * Sets a field's value the way React and Vue notice: the prototype's native setter (React's value
 * tracker patches the instance, so a plain `el.value =` is swallowed), then an input event.
 */
export function setFieldValue(field: TextField, value: string, inputType: string, data: string | null): void {
  if (field.localName === 'textarea') setTextAreaValue(field as HTMLTextAreaElement, value);
  else setInputValue(field as HTMLInputElement, value);
  inputEvent(field, 'input', inputType, data);
}

/** Types into an input or textarea: per-character key and input events for text, one set for the rest. */
export function typeIntoField(field: TextField, text: string, clear: boolean): void {
  htmlFocus(field, { preventScroll: true });
  const base = clear ? '' : field.value;
  if (clear && field.value !== '') setFieldValue(field, '', 'deleteContentBackward', null);
  const perChar = field.localName === 'textarea' || TEXT_TYPES[(field as HTMLInputElement).type] === true;
  if (!perChar) {
    setFieldValue(field, base + text, 'insertReplacementText', text);
    // A date input refuses "09/10/2012" as a value (it wants 2012-09-10): read it the way people write it.
    if (field.value === '' && text !== '') {
      const converted = dateInputValue((field as HTMLInputElement).type, text, dayFirst());
      if (converted !== null) setFieldValue(field, converted, 'insertReplacementText', converted);
    }
  } else {
    // A person cannot type past maxlength, and neither do trusted keystrokes: the field keeps the start.
    const max = field.maxLength;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (max >= 0 && base.length + i + 1 > max) break;
      if (!keyEvent(field, 'keydown', ch, {})) continue;
      keyEvent(field, 'keypress', ch, {});
      if (inputEvent(field, 'beforeinput', 'insertText', ch)) {
        setFieldValue(field, base + strSlice(text, 0, i + 1), 'insertText', ch);
      }
      keyEvent(field, 'keyup', ch, {});
    }
  }
  plainEvent(field, 'change');
}

/** Types into a contenteditable element through the editing engine, which fires its own input events. */
export function typeIntoEditable(el: HTMLElement, text: string, clear: boolean): void {
  htmlFocus(el, { preventScroll: true });
  const doc = el.ownerDocument;
  const selection = docGetSelection(doc);
  if (selection) {
    selectAllChildren(selection, el);
    if (!clear) selectionCollapseToEnd(selection);
  }
  if (!docExecCommand(doc, 'insertText', false, text)) {
    el.textContent = clear ? text : (el.textContent ?? '') + text;
    inputEvent(el, 'input', 'insertText', text);
  }
}

/** True for fields whose value must never be echoed back (passwords). */
export function isSecret(field: Element): boolean {
  return isSecretInput(field.localName, strLower(getAttr(field, 'type') ?? ''));
}

/** Whether the browser's language writes the day before the month (everywhere but US English). */
function dayFirst(): boolean {
  const lang = strLower(browserLanguage);
  return !(lang === 'en' || lang === '' || strStartsWith(lang, 'en-us'));
}
