import { docGetById, fragmentGetById, getAttr, getComputedStyleOf, getRootNode } from './dom-intrinsics';
import { strCharCodeAt, strIndexOf, strLower } from './intrinsics';
import { capText, collapseWhitespace, LABEL_CAP } from './text';
import { hidesSubtree } from './visibility';

function textOfIds(el: Element, ids: string): string {
  const root = getRootNode(el) as Document | ShadowRoot;
  let out = '';
  let id = '';
  const flush = () => {
    if (!id) return;
    const target =
      (root.nodeType === 11 ? fragmentGetById(root as ShadowRoot, id) : null) ?? docGetById(el.ownerDocument, id);
    if (target) out += ` ${target.textContent ?? ''}`;
    id = '';
  };
  for (let i = 0; i < ids.length; i++) {
    const ch = ids[i] as string;
    if (ch === ' ') flush();
    else id += ch;
  }
  flush();
  return collapseWhitespace(out);
}

/**
 * A short name for an element, its accessible name as assistive technology computes it:
 * aria-labelledby, aria-label, the text of its <label>s (wrapping or `for=`), placeholder, title; for a
 * form field nothing names that way, the label-like text beside it on the page ("Username" in a <p> or
 * <td> before the input); then the visible text (`text`) or an image's alt.
 */
export function elementName(el: Element, text: string): string {
  const candidates: (string | null)[] = [];
  const labelledBy = getAttr(el, 'aria-labelledby');
  candidates[0] = labelledBy ? textOfIds(el, labelledBy) : null;
  candidates[1] = getAttr(el, 'aria-label');
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length > 0) {
    let joined = '';
    for (let i = 0; i < labels.length; i++) joined += ` ${labelText(labels[i] as HTMLLabelElement, el)}`;
    candidates[2] = joined;
  }
  candidates[3] = getAttr(el, 'placeholder');
  candidates[4] = getAttr(el, 'title');
  candidates[5] = null;
  candidates[6] = text;
  candidates[7] = getAttr(el, 'alt');
  for (let i = 0; i < candidates.length; i++) {
    let c = candidates[i];
    if (i === 5) {
      // Only when nothing before it named the element: it reads the page around the field.
      const kind = fieldKind(el);
      c = kind ? neighbourLabel(el, kind === 'box') : null;
    }
    if (!c) continue;
    const name = collapseWhitespace(c);
    if (name) return capText(name, LABEL_CAP);
  }
  return '';
}

/** Nodes read from one <label>: a label is short, however big the page around it. */
const MAX_LABEL_NODES = 200;

/** A label's text without the control it wraps: "Country <select>…</select>" names the list "Country". */
function labelText(label: Element, control: Element): string {
  const out = { text: '', nodes: 0 };
  const walk = (node: Node) => {
    const children = node.childNodes;
    for (let i = 0; i < children.length && out.nodes < MAX_LABEL_NODES; i++) {
      const child = children[i] as Node;
      out.nodes++;
      if (child.nodeType === 3) out.text += (child as Text).data;
      else if (child.nodeType === 1 && child !== control && SKIPPED_TAGS[(child as Element).localName] !== true) {
        walk(child);
        out.text += INLINE_TAGS[(child as Element).localName] === true ? '' : ' ';
      }
    }
  };
  walk(label);
  return out.text;
}

/** Input types that are buttons: their own text or value names them. */
const BUTTON_INPUTS: Record<string, true> = { button: true, submit: true, reset: true, image: true, hidden: true };
/** ARIA roles of fields that take a value and so need a label. */
const FIELD_ROLES: Record<string, true> = {
  textbox: true,
  searchbox: true,
  combobox: true,
  listbox: true,
  spinbutton: true,
  slider: true,
};
const BOX_ROLES: Record<string, true> = { checkbox: true, radio: true, switch: true };
/** Elements whose text belongs to another control, so it cannot label this one. */
const CONTROL_TAGS: Record<string, true> = { input: true, select: true, textarea: true, button: true };
const SKIPPED_TAGS: Record<string, true> = { script: true, style: true, template: true, noscript: true };
/** Elements inside a line of text: no space between their text and the next ("<b>User</b>name"). */
const INLINE_TAGS: Record<string, true> = {
  a: true,
  abbr: true,
  b: true,
  code: true,
  em: true,
  font: true,
  i: true,
  label: true,
  mark: true,
  small: true,
  span: true,
  strong: true,
  sub: true,
  sup: true,
  u: true,
};

/** 'field' for controls that take a value, 'box' for checkboxes and radios, '' for everything else. */
export function fieldKind(el: Element): '' | 'field' | 'box' {
  const tag = el.localName;
  if (tag === 'input') {
    const type = strLower(getAttr(el, 'type') ?? 'text');
    if (type === 'checkbox' || type === 'radio') return 'box';
    return BUTTON_INPUTS[type] === true ? '' : 'field';
  }
  if (tag === 'select' || tag === 'textarea') return 'field';
  const role = getAttr(el, 'role');
  if (!role) return '';
  const lower = strLower(role);
  if (BOX_ROLES[lower] === true) return 'box';
  return FIELD_ROLES[lower] === true ? 'field' : '';
}

/** A label is short: a few words, not a sentence (the task text above a form is not its field's name). */
const LABEL_MAX_CHARS = 60;
const LABEL_MAX_WORDS = 8;
/** Levels of ancestors whose siblings are searched: the field's own, then its wrapper's (a <td>, a <div>). */
const LEVELS = 2;
/** Siblings looked at per level, and nodes read per sibling: the search stays small on any page. */
const MAX_SIBLINGS = 6;
const MAX_NODES = 40;

/** What a sibling holds: text, nothing, or another control (whose label it is: stop looking). */
const BLOCKED = '\u0000';

/**
 * The nearest label-like text next to a field in reading order: before it ("Username" in a <p>, <td>
 * or <span> before the input), searching the field's siblings and then its wrapper's siblings; after
 * it for checkboxes and radios ("[ ] Remember me"), and for a field alone in its wrapper with its
 * caption below it. Text that belongs to another control stops the search.
 */
function neighbourLabel(el: Element, box: boolean): string {
  let node: Node = el;
  for (let level = 0; level < LEVELS; level++) {
    const before = siblingText(node, false);
    if (before === BLOCKED) return '';
    if (before) return labelLike(before) ? before : '';
    const parent: Element | null = node.parentElement;
    if (box || (level === 0 && parent !== null && onlyControl(parent, el))) {
      const after = siblingText(node, true);
      if (after === BLOCKED) return '';
      if (after) return labelLike(after) ? after : '';
    }
    if (!parent) return '';
    node = parent;
  }
  return '';
}

/** The text of the nearest sibling (before or after `node`) that shows any, skipping hidden ones. */
function siblingText(node: Node, after: boolean): string {
  let sibling = after ? node.nextSibling : node.previousSibling;
  for (let i = 0; sibling && i < MAX_SIBLINGS; i++) {
    const text = nodeText(sibling);
    if (text) return text;
    sibling = after ? sibling.nextSibling : sibling.previousSibling;
  }
  return '';
}

function nodeText(node: Node): string {
  if (node.nodeType === 3) return collapseWhitespace((node as Text).data);
  if (node.nodeType !== 1) return '';
  const el = node as Element;
  if (SKIPPED_TAGS[el.localName] === true) return '';
  if (hidesSubtree(getComputedStyleOf(el))) return '';
  const out = { text: '', nodes: 0 };
  return collectText(el, out) ? collapseWhitespace(out.text) : BLOCKED;
}

/** Appends the element's text; false when it holds a control or is too big to be a label. */
function collectText(el: Element, out: { text: string; nodes: number }): boolean {
  if (CONTROL_TAGS[el.localName] === true || fieldKind(el) !== '') return false;
  const children = el.childNodes;
  for (let i = 0; i < children.length; i++) {
    if (++out.nodes > MAX_NODES || out.text.length > LABEL_MAX_CHARS * 2) return false;
    const child = children[i] as Node;
    if (child.nodeType === 3) out.text += (child as Text).data;
    else if (child.nodeType === 1 && SKIPPED_TAGS[(child as Element).localName] !== true) {
      if (!collectText(child as Element, out)) return false;
      if (INLINE_TAGS[(child as Element).localName] !== true) out.text += ' ';
    }
  }
  return true;
}

/** Whether `el` is the only control inside `parent`. */
function onlyControl(parent: Element, el: Element): boolean {
  const out = { found: 0, nodes: 0 };
  countControls(parent, el, out);
  return out.found === 0 && out.nodes <= MAX_NODES;
}

function countControls(parent: Element, el: Element, out: { found: number; nodes: number }): void {
  const children = parent.children;
  for (let i = 0; i < children.length && out.found === 0 && out.nodes <= MAX_NODES; i++) {
    const child = children[i] as Element;
    out.nodes++;
    if (child === el) continue;
    if (CONTROL_TAGS[child.localName] === true || fieldKind(child) !== '') out.found++;
    else countControls(child, el, out);
  }
}

/** Short, with a letter in it, and not a sentence. */
function labelLike(text: string): boolean {
  if (text.length > LABEL_MAX_CHARS) return false;
  let words = 1;
  let letter = false;
  for (let i = 0; i < text.length; i++) {
    const code = strCharCodeAt(text, i);
    if (code === 32) words++;
    else if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 191) letter = true;
  }
  const last = text[text.length - 1];
  return letter && words <= LABEL_MAX_WORDS && last !== '.' && last !== '!';
}

/** Class and id words that say nothing about what a control does (frameworks, layout, state, sizes). */
const GENERIC_WORDS: Record<string, true> = {};
const GENERIC_LIST = [
  'ui',
  'btn',
  'button',
  'icon',
  'icons',
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'glyphicon',
  'material',
  'symbols',
  'outlined',
  'mdi',
  'bi',
  'ion',
  'ionicon',
  'js',
  'col',
  'row',
  'sm',
  'md',
  'lg',
  'xl',
  'xs',
  'div',
  'span',
  'wrap',
  'wrapper',
  'container',
  'inner',
  'outer',
  'item',
  'items',
  'el',
  'elem',
  'element',
  'component',
  'widget',
  'default',
  'state',
  'active',
  'hover',
  'focus',
  'focused',
  'selected',
  'corner',
  'all',
  'left',
  'right',
  'top',
  'bottom',
  'center',
  'pull',
  'float',
  'clearfix',
  'flex',
  'grid',
  'hidden',
  'show',
  'visible',
  'disabled',
  'enabled',
  'primary',
  'secondary',
  'small',
  'large',
  'big',
  'text',
  'label',
  'ng',
  'scope',
  'view',
  'mat',
  'mui',
  'base',
  'root',
  'main',
  'content',
  'link',
  'clickable',
  'pointer',
  'cursor',
  'the',
  'and',
  'for',
  'with',
  'box',
  'block',
  'inline',
  'lazy',
  'loaded',
  'round',
  'rounded',
  'circle',
  'light',
  'dark',
  'theme',
  'color',
  'white',
  'black',
  'red',
  'blue',
  'green',
  'style',
  'styled',
  'new',
  'old',
  'checkbox',
  'radio',
  'input',
  'select',
  'textarea',
  'field',
  'control',
];
// An index loop: for-of goes through Symbol.iterator, which a page may patch (see intrinsics.ts).
for (let i = 0; i < GENERIC_LIST.length; i++) GENERIC_WORDS[GENERIC_LIST[i] as string] = true;
const MAX_HINT_WORDS = 4;

/**
 * For a control nothing names: the words of its id and classes that say what it is ("trash",
 * "open search", "slider handle"), so an icon-only control can be told apart without a picture.
 * Words from frameworks and layout, and machine-made ones (with digits), are left out; '' when no
 * word is left.
 */
export function elementHint(el: Element): string {
  const source = `${getAttr(el, 'id') ?? ''} ${getAttr(el, 'class') ?? ''}`;
  let out = '';
  let count = 0;
  let word = '';
  let digits = false;
  const flush = () => {
    const lower = strLower(word);
    if (word.length >= 3 && word.length <= 20 && !digits && GENERIC_WORDS[lower] !== true && count < MAX_HINT_WORDS) {
      if (strIndexOf(` ${out} `, ` ${lower} `) < 0) {
        out += out ? ` ${lower}` : lower;
        count++;
      }
    }
    word = '';
    digits = false;
  };
  for (let i = 0; i < source.length; i++) {
    const code = strCharCodeAt(source, i);
    const upper = code >= 65 && code <= 90;
    const letter = upper || (code >= 97 && code <= 122);
    const digit = code >= 48 && code <= 57;
    if (!letter && !digit) {
      flush();
      continue;
    }
    // camelCase: "openSearch" is two words.
    if (upper && word.length > 0 && !isUpper(strCharCodeAt(word, word.length - 1))) flush();
    if (digit) digits = true;
    word += source[i];
  }
  flush();
  return out;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}
