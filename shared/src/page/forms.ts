/**
 * What a visitor changed in the page's forms, read before a parked session's context closes and put
 * back when it is revived (issue 14): fields are found again by a selector, since element indices
 * belong to one document.
 */
import {
  dispatch,
  docGetById,
  docQueryAll,
  EventCtor,
  getAttr,
  setInputChecked,
  setInputValue,
  setOptionSelected,
  setTextAreaValue,
} from './dom-intrinsics';
import type { FieldValue, FormState } from './form-state';
import { append, joinStrings, strSlice, toNumber, toStr } from './intrinsics';

/** A page with more changed fields keeps the first ones. */
const MAX_FIELDS = 500;
/** Text kept per field: a pasted book is not worth keeping for a parked session. */
const MAX_VALUE = 100_000;
const SKIPPED_INPUTS: Record<string, true> = { hidden: true, submit: true, button: true, reset: true, image: true };

const quoted = (s: string) => CSS.escape(s);

function selectorOf(doc: Document, el: Element): string {
  const id = getAttr(el, 'id');
  if (id && docGetById(doc, id) === el && docQueryAll(doc, `#${quoted(id)}`).length === 1) return `#${quoted(id)}`;
  const name = getAttr(el, 'name');
  const tag = el.localName;
  if (name) {
    const byName = `${tag}[name="${quoted(name)}"]`;
    if (docQueryAll(doc, byName).length === 1) return byName;
    const value = getAttr(el, 'value');
    if (tag === 'input' && value !== null) {
      const byValue = `${byName}[value="${quoted(value)}"]`;
      if (docQueryAll(doc, byValue).length === 1) return byValue;
    }
  }
  const path: string[] = [];
  for (let node: Element | null = el; node && node !== doc.documentElement; node = node.parentElement) {
    const parent: Element | null = node.parentElement;
    let index = 1;
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) index++;
    path[path.length] = `${node.localName}:nth-child(${index})`;
    if (!parent) break;
  }
  const ordered: string[] = [];
  for (let i = path.length - 1; i >= 0; i--) append(ordered, path[i] as string);
  return `html > ${joinStrings(ordered, ' > ')}`;
}

/** The fields of `doc` (its main document only) whose value differs from the one the page gave them. */
export function readForms(doc: Document): FormState {
  const fields: FieldValue[] = [];
  const lost: string[] = [];
  const all = docQueryAll(doc, 'input, textarea, select');
  for (let i = 0; i < all.length && fields.length < MAX_FIELDS; i++) {
    const el = all[i] as Element;
    if (el instanceof HTMLInputElement) {
      const type = el.type;
      if (SKIPPED_INPUTS[type] === true) continue;
      if (type === 'file') {
        if (el.files && el.files.length > 0) append(lost, `the file chosen in ${selectorOf(doc, el)}`);
        continue;
      }
      if (type === 'checkbox' || type === 'radio') {
        if (el.checked !== el.defaultChecked)
          append(fields, { selector: selectorOf(doc, el), kind: 'checked', value: toStr(el.checked) });
        continue;
      }
      if (el.value !== el.defaultValue)
        append(fields, { selector: selectorOf(doc, el), kind: 'value', value: strSlice(el.value, 0, MAX_VALUE) });
    } else if (el instanceof HTMLTextAreaElement) {
      if (el.value !== el.defaultValue)
        append(fields, { selector: selectorOf(doc, el), kind: 'value', value: strSlice(el.value, 0, MAX_VALUE) });
    } else if (el instanceof HTMLSelectElement) {
      let changed = false;
      const chosen: string[] = [];
      for (let o = 0; o < el.options.length; o++) {
        const option = el.options[o] as HTMLOptionElement;
        if (option.selected !== option.defaultSelected) changed = true;
        if (option.selected) append(chosen, toStr(o));
      }
      if (changed) append(fields, { selector: selectorOf(doc, el), kind: 'select', value: joinStrings(chosen, ',') });
    }
  }
  return { fields, lost };
}

function fire(el: Element): void {
  dispatch(el, new EventCtor('input', { bubbles: true }));
  dispatch(el, new EventCtor('change', { bubbles: true }));
}

/** Puts fields back as a person's input would (input and change events); how many it could. */
export function writeForms(doc: Document, fields: readonly FieldValue[]): { restored: number; missing: number } {
  let restored = 0;
  let missing = 0;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as FieldValue;
    let el: Element | null = null;
    try {
      el = docQueryAll(doc, field.selector)[0] ?? null;
    } catch {
      el = null;
    }
    if (field.kind === 'checked' && el instanceof HTMLInputElement) {
      setInputChecked(el, field.value === 'true');
    } else if (field.kind === 'select' && el instanceof HTMLSelectElement) {
      const wanted: Record<string, true> = {};
      let part = '';
      // By hand, not String.prototype.split: a page may have patched it.
      for (let c = 0; c <= field.value.length; c++) {
        const ch = field.value[c];
        if (ch === undefined || ch === ',') {
          if (part) wanted[toStr(toNumber(part))] = true;
          part = '';
        } else part += ch;
      }
      for (let o = 0; o < el.options.length; o++)
        setOptionSelected(el.options[o] as HTMLOptionElement, wanted[toStr(o)] === true);
    } else if (field.kind === 'value' && el instanceof HTMLInputElement) {
      // The prototype's setter, so a framework that wraps the element's own (React) sees the change.
      setInputValue(el, field.value);
    } else if (field.kind === 'value' && el instanceof HTMLTextAreaElement) {
      setTextAreaValue(el, field.value);
    } else {
      missing++;
      continue;
    }
    fire(el);
    restored++;
  }
  return { restored, missing };
}
