/**
 * One walk over the page for article extraction: per element, how much text it holds, how much of
 * that is link text, and the counts later cleaning needs (paragraphs, images, list items, inputs,
 * embeds, heading text), all summed bottom-up in one pass. On the way it notes the paragraphs to
 * score (p, td, pre, section, h2-h6, divs holding only inline content, and runs of inline content
 * between blocks or `<br><br>`), the first byline, and which subtrees are left out (hidden,
 * boilerplate by class or role). Reads the live page; changes nothing.
 */
import { elQueryAll, getAttr } from '../dom-intrinsics';
import { append, SafeWeakMap, strCharCodeAt, strIndexOf, strLower } from '../intrinsics';
import { isSpace } from '../text';
import { looksLikeByline, looksUnlikely, UNLIKELY_ROLES } from './article-patterns';
import { INLINE_TAGS, isHidden, isSkipped, type Scope, tagOf, textOf } from './dom';

/** What the walk knows about one element (its subtree, minus what is left out). */
export interface Info {
  el: Element;
  parent: Info | null;
  tag: string;
  /** Lower-case class and id, space-separated; and each alone. */
  name: string;
  cls: string;
  id: string;
  /** Element children walked (not left out). */
  kids: number;
  /** A div holding only inline content, scored as a paragraph. */
  asParagraph: boolean;
  text: number;
  link: number;
  commas: number;
  p: number;
  img: number;
  li: number;
  /** Text inside list items. */
  liText: number;
  input: number;
  embed: number;
  headingText: number;
  /** Contains a block element (div, p, img, list, table, pre, blockquote, dl). */
  block: boolean;
  /** Readability-style score, once some paragraph scored it. */
  score?: number;
  /** Taken out by cleaning. */
  removed?: boolean;
}

/** A paragraph to score: an element, or a run of inline content inside `parent`. */
export interface Paragraph {
  parent: Info;
  text: number;
  commas: number;
  /** The element when the paragraph is one (else a run of inline content). */
  info?: Info;
}

export interface Scan {
  infos: SafeWeakMap<Element, Info>;
  body: Info;
  paragraphs: Paragraph[];
  /** Every element walked, in document order. */
  all: Info[];
  byline: string;
  bylineEl: Element | null;
}

export interface ScanFlags {
  stripUnlikely: boolean;
}

const SCORED: Record<string, true> = {
  p: true,
  td: true,
  pre: true,
  section: true,
  h2: true,
  h3: true,
  h4: true,
  h5: true,
  h6: true,
};
const BLOCKS: Record<string, true> = {
  blockquote: true,
  dl: true,
  div: true,
  img: true,
  ol: true,
  p: true,
  pre: true,
  table: true,
  ul: true,
};
const HEADINGS: Record<string, true> = { h1: true, h2: true, h3: true, h4: true, h5: true, h6: true };
const EMBEDS: Record<string, true> = { object: true, embed: true, iframe: true };

const COMMAS: Record<number, true> = {
  44: true,
  1548: true,
  65104: true,
  65040: true,
  65041: true,
  11841: true,
  11828: true,
  11826: true,
  65292: true,
};

/** Length after collapsing whitespace runs to one space (ends not trimmed), and the commas in it. */
function measure(data: string): { text: number; commas: number } {
  let text = 0;
  let commas = 0;
  let space = false;
  for (let i = 0; i < data.length; i++) {
    const code = strCharCodeAt(data, i);
    if (isSpace(code)) {
      if (!space) text++;
      space = true;
      continue;
    }
    space = false;
    text++;
    if (COMMAS[code] === true) commas++;
  }
  return { text, commas };
}

function newInfo(el: Element, parent: Info | null, tag: string): Info {
  const cls = getAttr(el, 'class');
  const id = getAttr(el, 'id');
  const lowerCls = typeof cls === 'string' ? strLower(cls) : '';
  const lowerId = typeof id === 'string' ? strLower(id) : '';
  return {
    el,
    parent,
    tag,
    name: `${lowerCls} ${lowerId}`,
    cls: lowerCls,
    id: lowerId,
    kids: 0,
    asParagraph: false,
    text: 0,
    link: 0,
    commas: 0,
    p: 0,
    img: 0,
    li: 0,
    liText: 0,
    input: 0,
    embed: 0,
    headingText: 0,
    block: false,
  };
}

function hasAncestorTag(info: Info, tags: Record<string, true>): boolean {
  for (let p = info.parent; p; p = p.parent) if (tags[p.tag] === true) return true;
  return false;
}

const TABLE_OR_CODE: Record<string, true> = { table: true, code: true };

function isByline(el: Element, info: Info, text: string): boolean {
  const rel = getAttr(el, 'rel');
  const itemprop = getAttr(el, 'itemprop');
  const hinted =
    rel === 'author' ||
    (typeof itemprop === 'string' && strIndexOf(strLower(itemprop), 'author') >= 0) ||
    looksLikeByline(info.name);
  return hinted && text.length > 0 && text.length < 100;
}

/** The byline's text: an itemprop=name inside it when there is one (the name without "By"). */
function bylineText(el: Element, scope: Scope): string {
  const names = elQueryAll(el, '[itemprop="name"]');
  for (let i = 0; i < names.length; i++) {
    const name = textOf(names[i] as Element, scope);
    if (name) return name;
  }
  return textOf(el, scope);
}

interface Frame {
  info: Info;
  /** Inline run being collected among this element's children. */
  run: { text: number; commas: number };
  runs: Paragraph[];
  /** A `<br>` just ended the run's last content (two in a row end the run). */
  br: boolean;
  childIndex: number;
}

function endRun(frame: Frame): void {
  if (frame.run.text > 0) append(frame.runs, { parent: frame.info, text: frame.run.text, commas: frame.run.commas });
  frame.run = { text: 0, commas: 0 };
}

/** Adds a finished child's sums to its parent. */
function addUp(parent: Info, child: Info): void {
  parent.text += child.text;
  parent.link += child.link;
  parent.commas += child.commas;
  parent.p += child.p;
  parent.img += child.img;
  parent.li += child.li;
  parent.liText += child.liText;
  parent.input += child.input;
  parent.embed += child.embed;
  parent.headingText += child.headingText;
  if (child.block || BLOCKS[child.tag] === true) parent.block = true;
}

/** Whether an element is left out of the article as a whole: hidden, not content, or boilerplate. */
function leftOut(el: Element, tag: string, info: Info, scope: Scope, flags: ScanFlags): boolean {
  if (isSkipped(el, tag) || isHidden(el, scope)) return true;
  if (getAttr(el, 'aria-hidden') === 'true') return true;
  if (!flags.stripUnlikely || tag === 'body' || tag === 'a') return false;
  const role = getAttr(el, 'role');
  if (typeof role === 'string' && UNLIKELY_ROLES[role] === true) return true;
  return looksUnlikely(info.name) && !hasAncestorTag(info, TABLE_OR_CODE);
}

/**
 * Walks the body without recursion (deep pages), children before parents for the sums. `byline`:
 * undefined to look for the byline (the first element named like one, with short text), else the
 * one found before (left out again).
 */
export function scanArticle(scope: Scope, flags: ScanFlags, byline: Element | null | undefined): Scan | null {
  const bodyEl = scope.doc.body;
  if (!bodyEl) return null;
  const infos = new SafeWeakMap<Element, Info>();
  const body = newInfo(bodyEl, null, 'body');
  infos.set(bodyEl, body);
  const scan: Scan = { infos, body, paragraphs: [], all: [body], byline: '', bylineEl: null };
  const stack: Frame[] = [{ info: body, run: { text: 0, commas: 0 }, runs: [], br: false, childIndex: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const nodes = frame.info.el.childNodes;
    if (frame.childIndex < nodes.length) {
      const node = nodes[frame.childIndex++] as Node;
      if (node.nodeType === 3) {
        const m = measure((node as Text).data);
        frame.info.text += m.text;
        frame.info.commas += m.commas;
        frame.run.text += m.text;
        frame.run.commas += m.commas;
        if (m.text > 1) frame.br = false;
        continue;
      }
      if (node.nodeType !== 1) continue;
      const el = node as Element;
      const tag = tagOf(el);
      if (tag === 'br') {
        if (frame.br) endRun(frame);
        frame.br = true;
        continue;
      }
      const info = newInfo(el, frame.info, tag);
      if (leftOut(el, tag, info, scope, flags)) continue;
      if (el === byline) continue;
      if (byline === undefined && scan.bylineEl === null) {
        const text =
          getAttr(el, 'rel') === 'author' || getAttr(el, 'itemprop') || looksLikeByline(info.name)
            ? textOf(el, scope)
            : '';
        if (text && isByline(el, info, text)) {
          scan.bylineEl = el;
          scan.byline = bylineText(el, scope);
          continue;
        }
      }
      infos.set(el, info);
      append(scan.all, info);
      frame.info.kids++;
      append(stack, { info, run: { text: 0, commas: 0 }, runs: [], br: false, childIndex: 0 });
      continue;
    }
    // All children done: close the element.
    stack.length--;
    const info = frame.info;
    const tag = info.tag;
    const isInline = INLINE_TAGS[tag] === true;
    endRun(frame);
    if (tag === 'a') info.link = info.text;
    if (tag === 'p') info.p++;
    if (tag === 'img') info.img++;
    if (tag === 'li') {
      info.li++;
      info.liText = info.text;
    }
    if (tag === 'input') info.input++;
    if (EMBEDS[tag] === true) info.embed++;
    if (HEADINGS[tag] === true) info.headingText = info.text;
    const parent = info.parent;
    if (parent) {
      const parentFrame = stack[stack.length - 1] as Frame;
      addUp(parent, info);
      if (isInline) {
        parentFrame.run.text += info.text;
        parentFrame.run.commas += info.commas;
        if (info.text > 0) parentFrame.br = false;
      } else {
        endRun(parentFrame);
        parentFrame.br = false;
      }
    }
    // Which paragraphs this element stands for.
    if (SCORED[tag] === true && parent) {
      append(scan.paragraphs, { parent, text: info.text, commas: info.commas, info });
    } else if (tag === 'div' && !info.block && frame.runs.length <= 1 && parent) {
      info.asParagraph = true;
      append(scan.paragraphs, { parent, text: info.text, commas: info.commas, info });
    } else if (!isInline && SCORED[tag] !== true && tag !== 'li') {
      for (let i = 0; i < frame.runs.length; i++) append(scan.paragraphs, frame.runs[i] as Paragraph);
    }
  }
  return scan;
}
