/** DOM reading shared by the content model: visibility, text, inline Markdown, absolute URLs, hints. */
import { elQueryAll, getAttr, getComputedStyleOf, getRect } from '../dom-intrinsics';
import { type SafeWeakMap, strIndexOf, strLower, strSlice, strStartsWith, strTrim, uncurry } from '../intrinsics';
import { elementName } from '../names';
import { collapseWhitespace } from '../text';

const URLCtor = URL;
export const jsonParse = JSON.parse;
const attrNames = uncurry(Element.prototype.getAttributeNames);

/** Elements whose content is never page text. */
const SKIP_TAGS: Record<string, true> = {
  script: true,
  style: true,
  noscript: true,
  template: true,
  head: true,
  svg: true,
  canvas: true,
  iframe: true,
  object: true,
  select: true,
  option: true,
  datalist: true,
  input: true,
  textarea: true,
  button: true,
};

/** Block content inside a button that makes it a wrapper of content rather than a control. */
const CONTENT_IN_BUTTON = 'div, p, h1, h2, h3, h4, h5, h6, ul, ol, table, section, article';

/**
 * Whether an element's content is left out of the page's content. A button usually holds a control's
 * caption ("Add to cart"), which is not content; but some pages wrap content in buttons (API
 * explorers list operations as buttons, app stores make whole cards clickable), so a button holding
 * block content is read like any other element.
 */
export function isSkipped(el: Element, tag: string): boolean {
  if (SKIP_TAGS[tag] !== true) return false;
  return tag !== 'button' || elQueryAll(el, CONTENT_IN_BUTTON).length === 0;
}

/** Inline elements: a block made only of these is one paragraph. */
export const INLINE_TAGS: Record<string, true> = {
  a: true,
  abbr: true,
  b: true,
  bdi: true,
  br: true,
  cite: true,
  code: true,
  data: true,
  del: true,
  em: true,
  font: true,
  i: true,
  img: true,
  ins: true,
  kbd: true,
  label: true,
  mark: true,
  meter: true,
  q: true,
  s: true,
  samp: true,
  small: true,
  span: true,
  strong: true,
  sub: true,
  sup: true,
  time: true,
  u: true,
  var: true,
  wbr: true,
  picture: true,
  source: true,
};

export const tagOf = (el: Element): string => strLower(el.tagName);

/** What one extraction may see: all of the page, or only the viewport. */
export interface Scope {
  win: Window;
  doc: Document;
  fullPage: boolean;
  aria: boolean;
  base: string;
  /** isHidden answers, per element, for this one extraction (each pass asks again). */
  hidden: SafeWeakMap<Element, boolean>;
  /**
   * The whole body is visibility:hidden: an anti-flicker snippet hides the page until its scripts
   * load (or forever, when they cannot). Visibility then says nothing; display still does.
   */
  bodyHidden: boolean;
}

/** Whether the page hides its whole body by visibility (see Scope.bodyHidden). */
export function hidesWholeBody(doc: Document): boolean {
  const body = doc.body;
  return body !== null && getComputedStyleOf(body).visibility === 'hidden';
}

/** Hidden by CSS (display/visibility/opacity), or outside the viewport when only the viewport counts. */
export function isHidden(el: Element, scope: Scope): boolean {
  const known = scope.hidden.get(el);
  if (known !== undefined) return known;
  const hidden = computeHidden(el, scope);
  scope.hidden.set(el, hidden);
  return hidden;
}

function computeHidden(el: Element, scope: Scope): boolean {
  const style = getComputedStyleOf(el);
  if (style.display === 'none' || style.contentVisibility === 'hidden') return true;
  if (style.visibility === 'hidden' && !scope.bodyHidden) return true;
  if (scope.fullPage) return false;
  const r = getRect(el);
  if (r.width === 0 && r.height === 0) return false;
  return r.bottom <= 0 || r.right <= 0 || r.top >= scope.win.innerHeight || r.left >= scope.win.innerWidth;
}

/** `href` resolved against the document base; "" for javascript: and unparsable values. */
export function absoluteUrl(value: string | null, base: string): string {
  if (value === null) return '';
  const v = strTrim(value);
  if (v === '' || strStartsWith(strLower(v), 'javascript:') || v === '#') return '';
  try {
    return new URLCtor(v, base).href;
  } catch {
    return '';
  }
}

/** The first URL of a srcset ("a.jpg 1x, b.jpg 2x" → a.jpg). */
function firstSrcset(srcset: string | null): string | null {
  if (!srcset) return null;
  const s = strTrim(srcset);
  const space = strIndexOf(s, ' ');
  const comma = strIndexOf(s, ',');
  let end = s.length;
  if (space >= 0) end = space;
  if (comma >= 0 && comma < end) end = comma;
  return end > 0 ? strSlice(s, 0, end) : null;
}

const LAZY_ATTRS = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url'];

/** An image's real source, taking lazy-loading attributes when `src` is missing or a placeholder. */
export function imageSource(img: Element, base: string): { src: string; lazy: boolean } {
  const src = getAttr(img, 'src');
  let lazy = getAttr(img, 'loading') === 'lazy';
  const placeholder =
    !src ||
    strStartsWith(src, 'data:') ||
    strIndexOf(strLower(src), 'placeholder') >= 0 ||
    strIndexOf(strLower(src), 'blank.') >= 0;
  if (!placeholder) return { src: absoluteUrl(src, base), lazy };
  for (let i = 0; i < LAZY_ATTRS.length; i++) {
    const v = getAttr(img, LAZY_ATTRS[i] as string);
    if (v) return { src: absoluteUrl(v, base), lazy: true };
  }
  const set = firstSrcset(getAttr(img, 'data-srcset')) ?? firstSrcset(getAttr(img, 'srcset'));
  if (set) {
    lazy = true;
    return { src: absoluteUrl(set, base), lazy };
  }
  const parent = img.parentElement;
  if (parent && tagOf(parent) === 'picture') {
    const sources = parent.children;
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i] as Element;
      const candidate = firstSrcset(getAttr(s, 'srcset')) ?? firstSrcset(getAttr(s, 'data-srcset'));
      if (candidate) return { src: absoluteUrl(candidate, base), lazy: true };
    }
  }
  return { src: src && !strStartsWith(src, 'data:') ? absoluteUrl(src, base) : '', lazy };
}

/**
 * The name an element without text goes by: its accessible name, the one the snapshot and both
 * planners read (aria-labelledby, aria-label, a <label>, placeholder, title, the text beside a field).
 */
export function labelOf(el: Element): string {
  return elementName(el, '');
}

function isBlockSeparator(tag: string): boolean {
  return INLINE_TAGS[tag] !== true;
}

function textInto(node: Node, scope: Scope, out: { s: string }, markdown: boolean): void {
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as Node;
    if (child.nodeType === 3) {
      out.s += (child as Text).data;
      continue;
    }
    if (child.nodeType !== 1) continue;
    const el = child as Element;
    const tag = tagOf(el);
    if (isSkipped(el, tag)) continue;
    if (tag === 'br') {
      out.s += ' ';
      continue;
    }
    if (isHidden(el, scope)) continue;
    if (tag === 'img') {
      const alt = collapseWhitespace(getAttr(el, 'alt') ?? '');
      if (markdown) {
        const { src } = imageSource(el, scope.base);
        if (src) out.s += ` ![${alt}](${src}) `;
      } else if (scope.aria && alt) out.s += ` ${alt} `;
      continue;
    }
    const sep = isBlockSeparator(tag) ? ' ' : '';
    if (markdown && tag === 'a') {
      out.s += ` ${linkMarkdown(el, scope)} `;
      continue;
    }
    const before = out.s.length;
    out.s += sep;
    textInto(el, scope, out, markdown);
    if (scope.aria && out.s.length === before + sep.length) {
      const label = labelOf(el);
      if (label) out.s += ` ${label} `;
    }
    out.s += sep;
  }
}

/** Visible text of an element, whitespace collapsed. */
export function textOf(el: Element, scope: Scope): string {
  const out = { s: '' };
  textInto(el, scope, out, false);
  return collapseWhitespace(out.s);
}

/** Visible content of an element as inline Markdown: links `[text](abs)`, images `![alt](abs)`. */
function linkMarkdown(el: Element, scope: Scope): string {
  const href = absoluteUrl(getAttr(el, 'href'), scope.base);
  const inner = { s: '' };
  textInto(el, scope, inner, true);
  let text = collapseWhitespace(inner.s);
  if (text === '' && scope.aria) text = labelOf(el);
  return href && text ? `[${text}](${href})` : text;
}

export function markdownOf(el: Element, scope: Scope): string {
  // A block that is itself a link (a list item's <a> beside a <p>) keeps its target.
  if (tagOf(el) === 'a') return linkMarkdown(el, scope);
  const out = { s: '' };
  textInto(el, scope, out, true);
  return collapseWhitespace(out.s);
}

/** Lower-case words naming an element: class, id, itemprop, name, data-* keys, aria-label. */
export function hintOf(el: Element): string {
  let hint = '';
  const cls = getAttr(el, 'class');
  if (cls) hint += ` ${cls}`;
  const names = ['id', 'itemprop', 'name', 'aria-label', 'data-field', 'data-testid', 'property'];
  for (let i = 0; i < names.length; i++) {
    const v = getAttr(el, names[i] as string);
    if (v) hint += ` ${v}`;
  }
  const all = attrNames(el);
  for (let i = 0; i < all.length; i++) {
    const n = all[i] as string;
    if (strStartsWith(n, 'data-')) hint += ` ${strSlice(n, 5)}`;
  }
  return strLower(collapseWhitespace(hint));
}

/** data-* attributes of an element, keys without the prefix. */
export function dataOf(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  const all = attrNames(el);
  for (let i = 0; i < all.length; i++) {
    const n = all[i] as string;
    if (strStartsWith(n, 'data-')) out[strSlice(n, 5)] = collapseWhitespace(getAttr(el, n) ?? '');
  }
  return out;
}
