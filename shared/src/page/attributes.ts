import { getAttr } from './dom-intrinsics';
import { shortenHref } from './href';
import { strIndexOf } from './intrinsics';
import { ATTRIBUTE_CAP, capText, collapseWhitespace } from './text';

/** Attributes worth showing the model; everything else (classes, ids, data-*) is noise. */
const SHOWN = ['type', 'name', 'role', 'placeholder', 'title', 'alt', 'href', 'min', 'max', 'step', 'accept'];

/**
 * aria-* attributes left out: states are rendered from the element's real state (states.ts), and
 * id references mean nothing to the model.
 */
const ARIA_SKIPPED: Record<string, true> = {
  'aria-checked': true,
  'aria-selected': true,
  'aria-expanded': true,
  'aria-disabled': true,
  'aria-pressed': true,
  'aria-readonly': true,
  'aria-required': true,
  'aria-hidden': true,
  'aria-controls': true,
  'aria-owns': true,
  'aria-labelledby': true,
  'aria-describedby': true,
  'aria-activedescendant': true,
  'aria-flowto': true,
  'aria-details': true,
  'aria-errormessage': true,
  'aria-modal': true,
};

/** Input types whose value is the visible caption or meaningless, not something typed. */
const NO_VALUE_TYPES: Record<string, true> = { checkbox: true, radio: true, file: true, image: true };

/** The whitelisted attributes of an element as [name, value] pairs, each value capped. */
export function collectAttributes(el: Element, tag: string, origin: string): [string, string][] {
  const out: [string, string][] = [];
  const add = (name: string, raw: string) => {
    out[out.length] = [name, capText(collapseWhitespace(raw), ATTRIBUTE_CAP)];
  };
  for (let i = 0; i < SHOWN.length; i++) {
    const name = SHOWN[i] as string;
    if (name === 'type' && tag !== 'input' && tag !== 'button') continue;
    const raw = getAttr(el, name);
    if (raw === null) continue;
    if (name === 'href') {
      const abs = (el as HTMLAnchorElement).href;
      add(name, shortenHref(typeof abs === 'string' && abs ? abs : raw, origin));
      continue;
    }
    add(name, raw);
  }
  const attrs = el.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i] as Attr;
    const name = attr.name;
    if (strIndexOf(name, 'aria-') !== 0 || ARIA_SKIPPED[name] === true) continue;
    add(name, attr.value);
  }
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    const type = input.type;
    // Never a password's value, not even its attribute: the state `filled` says whether it is set.
    if (type !== 'password' && NO_VALUE_TYPES[type] !== true) add('value', input.value);
    if (input.multiple) add('multiple', '');
  } else if (tag === 'textarea') {
    add('value', (el as HTMLTextAreaElement).value);
  } else if (tag === 'select' && (el as HTMLSelectElement).multiple) {
    add('multiple', '');
  }
  return out;
}
