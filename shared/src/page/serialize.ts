import { collectAttributes } from './attributes';
import { getAttr, getComputedStyleOf, nodeContains, slotAssignedNodes } from './dom-intrinsics';
import { type InteractiveKind, interactiveKind, isWidgetRole, roleOf } from './elements';
import { type Box, childFrameContext, type FrameContext, intersect, topBox } from './geometry';
import { shortenHref, showsTarget } from './href';
import { append, joinStrings, mathRound, strIndexOf, strLower, strSlice, toNumber } from './intrinsics';
import { elementHint, elementName, fieldKind } from './names';
import type { ElementRegistry } from './registry';
import type { SnapshotElement } from './schema';
import { elementStates, renderStates } from './states';
import { capText, collapseWhitespace, LABEL_CAP, quoteValue } from './text';
import type { Line, LineKind } from './text-budget';
import { findModal, hidesSelf, hidesSubtree, hitTest, isInert } from './visibility';

/** Never rendered, or holding no page text. */
const SKIP: Record<string, true> = {
  head: true,
  script: true,
  style: true,
  noscript: true,
  template: true,
  svg: true,
  math: true,
  canvas: true,
  video: true,
  audio: true,
  object: true,
  embed: true,
  link: true,
  meta: true,
};

/** Computed `display` values that start a new line of text; inline ones continue it. */
const BLOCK_DISPLAY: Record<string, true> = {
  block: true,
  flex: true,
  grid: true,
  'list-item': true,
  table: true,
  'table-row': true,
  'table-caption': true,
  'table-row-group': true,
  'table-header-group': true,
  'table-footer-group': true,
  'flow-root': true,
};

/** Options shown for a <select> before the rest are counted. */
const MAX_OPTIONS = 30;

interface LabelCollector {
  text: string;
  nested: string[];
}

export interface SerializeOptions {
  fullPage: boolean;
  /** Origin of the top document, stripped from same-origin links. */
  origin: string;
  /** The deep focused element, for the `focused` state. */
  focused: Element | null;
  /** False on the first snapshot of a document: everything would be "new". */
  markNew: boolean;
}

export interface SerializeResult {
  lines: Line[];
  elements: SnapshotElement[];
  frames: { src: string; box: Box }[];
  modal: boolean;
}

/** Walks the rendered (flat) tree of a document and its same-origin frames into lines and elements. */
export class Serializer {
  readonly #registry: ElementRegistry;
  readonly #opts: SerializeOptions;
  readonly #lines: Line[] = [];
  readonly #elements: SnapshotElement[] = [];
  readonly #frames: { src: string; box: Box }[] = [];
  readonly #labels: LabelCollector[] = [];
  #line = '';
  #lineKind: LineKind = 'text';
  #lineInView = false;
  #modal = false;

  constructor(registry: ElementRegistry, opts: SerializeOptions) {
    this.#registry = registry;
    this.#opts = opts;
  }

  run(ctx: FrameContext): SerializeResult {
    this.#walkDocument(ctx);
    this.#flush();
    return { lines: this.#lines, elements: this.#elements, frames: this.#frames, modal: this.#modal };
  }

  #walkDocument(ctx: FrameContext): void {
    const root = ctx.doc.body ?? ctx.doc.documentElement;
    if (!root) return;
    const modal = findModal(ctx.doc);
    if (modal) {
      this.#modal = true;
      this.#marker('[a modal dialog is open: only its content is shown]');
    }
    this.#walkElement(root, ctx, modal, 'auto', true);
  }

  #walkChildren(
    parent: Element,
    ctx: FrameContext,
    modal: Element | null,
    cursor: string,
    inView: boolean,
    textVisible = true,
  ): void {
    const shadow = parent.shadowRoot;
    const nodes: ArrayLike<Node> =
      parent.localName === 'slot'
        ? slotAssignedNodes(parent as HTMLSlotElement, { flatten: true })
        : (shadow ?? parent).childNodes;
    const onlySummary = parent.localName === 'details' && !(parent as HTMLDetailsElement).open;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as Node;
      if (node.nodeType === 3) {
        if (textVisible) this.#text((node as Text).data, inView);
      } else if (node.nodeType === 1) {
        if (onlySummary && (node as Element).localName !== 'summary') continue;
        this.#walkElement(node as Element, ctx, modal, cursor, inView);
      }
    }
  }

  #walkElement(el: Element, ctx: FrameContext, modal: Element | null, cursor: string, parentInView: boolean): void {
    const tag = strLower(el.localName);
    if (SKIP[tag] === true) return;
    if (modal && el !== modal && !nodeContains(modal, el) && !nodeContains(el, modal)) return;
    const style = getComputedStyleOf(el);
    if (hidesSubtree(style)) return;
    if (tag === 'br') {
      this.#text('\n', parentInView);
      this.#flush();
      return;
    }
    const box = topBox(el, ctx);
    const zero = box.width === 0 && box.height === 0;
    // Clipped to (almost) nothing: screen-reader-only text and collapsed widgets show no pixels.
    if (box.width * box.height <= 1 && !zero && style.overflow !== 'visible') return;
    if (zero && style.overflow !== 'visible' && style.display !== 'contents') return;
    const selfVisible = !hidesSelf(style);
    const inView = zero ? parentInView : intersect(box, ctx.clip) !== null;
    if (tag === 'iframe' || tag === 'frame') {
      if (!zero && selfVisible) this.#iframe(el as HTMLIFrameElement, ctx, box, inView);
      return;
    }

    const block = BLOCK_DISPLAY[style.display] === true;
    if (block) this.#flush();
    if (tag === 'li' && this.#labels.length === 0) this.#line += '- ';
    if ((tag === 'td' || tag === 'th') && el.previousElementSibling) this.#line += ' | ';
    if (tag.length === 2 && tag[0] === 'h' && tag[1] !== undefined && tag[1] >= '1' && tag[1] <= '6') {
      if (this.#labels.length === 0) {
        let hashes = '';
        for (let i = 0; i < toNumber(tag[1]); i++) hashes += '#';
        this.#line += `${hashes} `;
        this.#lineKind = 'heading';
      }
    }
    if (tag === 'img' && this.#labels.length > 0 && selfVisible) {
      const alt = getAttr(el, 'alt');
      if (alt) this.#text(` ${alt} `, inView);
    }

    const kind = !selfVisible || isInert(el) ? null : interactiveKind(el, tag, style, cursor);
    if (kind && !zero && box.width > 0 && box.height > 0 && (inView || this.#opts.fullPage)) {
      const hit = inView ? hitTest(el, box, ctx) : null;
      if (hit === null || hit.kind !== 'covered') {
        this.#indexed(el, tag, kind, ctx, modal, style.cursor, box, inView);
        if (block) this.#flush();
        return;
      }
    }
    this.#walkChildren(el, ctx, modal, style.cursor, inView, selfVisible);
    if (block) this.#flush();
  }

  #indexed(
    el: Element,
    tag: string,
    kind: InteractiveKind,
    ctx: FrameContext,
    modal: Element | null,
    cursor: string,
    box: Box,
    inView: boolean,
  ): void {
    const { index, isNew } = this.#registry.indexFor(el);
    const attrs = collectAttributes(el, tag, this.#opts.origin);
    const states = elementStates(el, tag, this.#opts.focused);
    const element: SnapshotElement = {
      index,
      tag,
      role: roleOf(el),
      name: '',
      text: '',
      attributes: {},
      states,
      is_new: isNew && this.#opts.markNew,
      in_viewport: inView,
      frame_depth: ctx.depth,
      box: { x: mathRound(box.x), y: mathRound(box.y), width: mathRound(box.width), height: mathRound(box.height) },
    };
    // Trusted keystrokes fill an editor as well as a field: the driver needs to know which elements are editors.
    if (tag !== 'input' && tag !== 'textarea' && (el as HTMLElement).isContentEditable === true)
      element.editable = true;
    append(this.#elements, element);
    const shownTag = displayTag(tag, element.role);
    for (let i = 0; i < attrs.length; i++) {
      const pair = attrs[i] as [string, string];
      element.attributes[pair[0]] = pair[1];
    }
    const shown: Shown = { el, tag, shownTag, attrs, labelled: hasLabel(el), named: false, text: '' };
    const opener = `${element.is_new ? '*' : ''}[${index}]<${shownTag}`;

    if (kind === 'scroll') {
      const above = mathRound(el.scrollTop);
      const below = mathRound(el.scrollHeight - el.clientHeight - el.scrollTop);
      element.scroll = { above_px: above, below_px: below < 0 ? 0 : below };
      element.name = elementName(el, '');
      shown.named = element.name !== '';
      this.#flush();
      this.#emit(
        `${opener}${shownAttributes(shown)} scroll="${above}px above, ${element.scroll.below_px}px below"${renderStates(states)}>`,
        inView,
      );
      this.#flush();
      this.#walkChildren(el, ctx, modal, cursor, inView);
      return;
    }

    if (tag === 'select') {
      const select = el as HTMLSelectElement;
      const options: { text: string; value: string; selected: boolean }[] = [];
      const listed: string[] = [];
      const chosen: string[] = [];
      for (let i = 0; i < select.options.length; i++) {
        const opt = select.options[i] as HTMLOptionElement;
        const text = collapseWhitespace(opt.text);
        append(options, { text, value: opt.value, selected: opt.selected });
        if (opt.selected) append(chosen, text);
        if (i < MAX_OPTIONS) append(listed, capText(text, 60));
      }
      element.options = options;
      const more = options.length > MAX_OPTIONS ? ` | …${options.length - MAX_OPTIONS} more` : '';
      const value = joinStrings(chosen, ', ');
      element.attributes.value = value;
      // Its value is not its name: an unlabelled list is named by nothing, as assistive technology has it.
      element.name = elementName(el, '');
      element.text = value;
      shown.named = element.name !== '';
      let rendered = `${opener}${shownAttributes(shown)}`;
      if (!this.#justRead(element.name)) rendered += shownName(element);
      rendered += ` value=${quoteValue(value)}${renderStates(states)}>${joinStrings(listed, ' | ')}${more}${CLOSE}`;
      this.#emit(rendered, inView);
      return;
    }

    // A textarea scrolls its own text ("scroll to the bottom of the terms"): how much is left, as for boxes.
    if (tag === 'textarea' && el.scrollHeight > el.clientHeight + 2) {
      const below = mathRound(el.scrollHeight - el.clientHeight - el.scrollTop);
      element.scroll = { above_px: mathRound(el.scrollTop), below_px: below < 0 ? 0 : below };
    }
    const collector: LabelCollector = { text: '', nested: [] };
    this.#labels[this.#labels.length] = collector;
    if (tag !== 'input' && tag !== 'textarea') this.#walkChildren(el, ctx, modal, cursor, inView);
    this.#labels.length -= 1;
    const label = capText(collapseWhitespace(collector.text), LABEL_CAP);
    element.text = label;
    element.name = elementName(el, label);
    shown.named = element.name !== '';
    shown.text = label;
    let rendered = `${opener}${shownAttributes(shown)}`;
    // Checkboxes and radios are followed by their label text, which reads well enough.
    if (fieldKind(el) === 'field' && !this.#justRead(element.name)) rendered += shownName(element);
    if (!element.name) {
      const hint = elementHint(el);
      if (hint) {
        element.attributes.hint = hint;
        rendered += ` hint=${quoteValue(hint)}`;
      }
    }
    rendered += `${renderStates(states)}>`;
    if (label) rendered += `${label}${CLOSE}`;
    for (let i = 0; i < collector.nested.length; i++) rendered += ` ${collector.nested[i]}`;
    this.#emit(rendered, inView);
  }

  #iframe(frame: HTMLIFrameElement, ctx: FrameContext, box: Box, inView: boolean): void {
    if (!inView && !this.#opts.fullPage) return;
    if (inView && hitTest(frame, box, ctx).kind === 'covered') return;
    let child: FrameContext | null = null;
    try {
      child = childFrameContext(frame, ctx);
    } catch {
      child = null; // cross-origin access throws in some embedders instead of returning null
    }
    const src = capText(shortenHref(frame.src || 'about:blank', this.#opts.origin), 100);
    this.#flush();
    if (!child) {
      append(this.#frames, { src: frame.src, box });
      this.#emit(`<iframe cross-origin src=${quoteValue(src)}>(content not shown)</iframe>`, inView);
      this.#flush();
      return;
    }
    this.#marker(`<iframe src=${quoteValue(src)}>`);
    this.#walkDocument(child);
    this.#flush();
    this.#marker('</iframe>');
  }

  /** Adds page text to the current line, or to the label of the element being rendered. */
  #text(raw: string, inView: boolean): void {
    const label = this.#labels[this.#labels.length - 1];
    if (label) {
      label.text += raw;
      return;
    }
    if (!inView && !this.#opts.fullPage) return;
    this.#line += raw;
    if (inView) this.#lineInView = true;
  }

  /** Whether the text right before the element being written ends with these words (its label, already read). */
  #justRead(words: string): boolean {
    if (!words) return false;
    const label = this.#labels[this.#labels.length - 1];
    const line = collapseWhitespace(this.#line);
    let before = collapseWhitespace(label ? label.text : line || (this.#lines[this.#lines.length - 1]?.text ?? ''));
    // A table cell's separator stands between a row's label and its field ("Director | [10]<input>").
    while (before.length > 0 && (before[before.length - 1] === '|' || before[before.length - 1] === ' '))
      before = strSlice(before, 0, before.length - 1);
    return before.length >= words.length && strSlice(before, before.length - words.length) === words;
  }

  /** Adds a rendered element to the current line, or after the label of the enclosing element. */
  #emit(rendered: string, inView: boolean): void {
    const label = this.#labels[this.#labels.length - 1];
    if (label) {
      append(label.nested, rendered);
      return;
    }
    this.#line += ` ${rendered} `;
    this.#lineKind = 'element';
    if (inView) this.#lineInView = true;
  }

  #marker(text: string): void {
    this.#flush();
    append(this.#lines, { text, kind: 'marker', in_viewport: true });
  }

  #flush(): void {
    if (this.#labels.length > 0) {
      const label = this.#labels[this.#labels.length - 1] as LabelCollector;
      label.text += ' ';
      return;
    }
    const text = collapseWhitespace(this.#line);
    if (hasWords(text)) append(this.#lines, { text, kind: this.#lineKind, in_viewport: this.#lineInView });
    this.#line = '';
    this.#lineKind = 'text';
    this.#lineInView = false;
  }
}

/** False for lines that hold only list bullets, heading marks or cell separators. */
function hasWords(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '-' && ch !== '#' && ch !== '|' && ch !== ' ') return true;
  }
  return false;
}

/**
 * An ARIA widget role is shown in place of the tag (`<tab selected>` rather than `<button role=tab
 * selected>`): the role is what the element is to the user, and the shorter line costs fewer tokens.
 * Form fields keep their tag, because whether text can be typed into it matters more.
 */
function displayTag(tag: string, role: string | null): string {
  if (!role || !isWidgetRole(role)) return tag;
  if (tag === 'input' || tag === 'select' || tag === 'textarea') return tag;
  return role;
}

/** Ends an element's text: `[12]<button>Sign in</>`. The tag is not repeated, it says nothing new. */
const CLOSE = '</>';

/** What deciding which attributes the text shows needs to know about an element. */
interface Shown {
  el: Element;
  tag: string;
  shownTag: string;
  attrs: [string, string][];
  /** Named by a label, aria-label or placeholder (see hasLabel). */
  labelled: boolean;
  /** Has an accessible name. */
  named: boolean;
  /** Its visible text, as the snapshot shows it. */
  text: string;
}

function shownAttributes(shown: Shown): string {
  let out = '';
  for (let i = 0; i < shown.attrs.length; i++) {
    const pair = shown.attrs[i] as [string, string];
    if (!worthShowing(shown, pair[0], pair[1])) continue;
    out += pair[1] === '' && pair[0] !== 'value' ? ` ${pair[0]}` : ` ${pair[0]}=${quoteValue(pair[1])}`;
  }
  return out;
}

/**
 * Attributes the LLM text can leave out because they say nothing new (the structured element keeps
 * them all): an empty value, the default input type, a button's type unless it resets (buttons
 * submit by default), a role the shown tag already says, a field's `name` when a label or
 * placeholder already names it (radios keep it: it names their group), a title, alt or aria-label
 * the element's own text already says, and a named link's target unless it leads out of the web of
 * pages (see showsTarget).
 */
function worthShowing(shown: Shown, attribute: string, value: string): boolean {
  const tag = shown.tag;
  if (attribute === 'value') return value !== '';
  if (attribute === 'type') return tag === 'button' ? value === 'reset' : !(tag === 'input' && value === 'text');
  if (attribute === 'role') return strLower(value) !== shown.shownTag;
  if (attribute === 'name' && shown.labelled) return false;
  if (attribute === 'href') return showsTarget(value, shown.named, getAttr(shown.el, 'download') !== null);
  if (attribute === 'title' || attribute === 'alt' || attribute === 'aria-label')
    return !saysAlready(shown.text, value);
  return true;
}

/** Whether `text` holds `words`, ignoring case (a title "Share on Facebook" on a link reading "Share on facebook"). */
function saysAlready(text: string, words: string): boolean {
  return text !== '' && words !== '' && strIndexOf(strLower(text), strLower(words)) >= 0;
}

/**
 * A field's name as ` label="…"`, unless an attribute already shown says it (or it is the text right
 * before the field, see #justRead): the model then reads the
 * same name the built-in planner and retrieve go by (from a <label>, aria-labelledby, or the text
 * beside the field), not only the text that happens to sit near the index.
 */
function shownName(element: SnapshotElement): string {
  const name = element.name;
  if (!name) return '';
  const a = element.attributes;
  if (name === a['aria-label'] || name === a.placeholder || name === a.title) return '';
  return ` label=${quoteValue(name)}`;
}

/** Whether a form field is named by a label, aria-label or placeholder (radios never count: see above). */
function hasLabel(el: Element): boolean {
  if (getAttr(el, 'type') === 'radio') return false;
  if (getAttr(el, 'aria-label') || getAttr(el, 'aria-labelledby') || getAttr(el, 'placeholder')) return true;
  const labels = (el as HTMLInputElement).labels;
  return labels !== undefined && labels !== null && labels.length > 0;
}
