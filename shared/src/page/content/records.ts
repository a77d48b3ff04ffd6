/**
 * Repeated records: the collections of a page, whatever their shape. Siblings of one shape (tag and
 * first class) are the records of a list: cards, search results, `<li>` items (plain text ones
 * too), rows of blocks. When a record spans several siblings in a cycle (a `<dt>` and its `<dd>`s, a
 * news table's title row, detail row and spacer row), each record starts at the cycle's first
 * sibling and runs to the next. Each group is named by the heading above it, for a cmd to pick it.
 */
import type { ContentRecord, RecordGroup, RecordPart } from '../content-schema';
import { closest, docQueryAll, getAttr, hasAttr, nodeContains } from '../dom-intrinsics';
import { append, arrSort, SafeMap, SafeWeakMap, strIndexOf, strSlice } from '../intrinsics';
import { collapseWhitespace } from '../text';
import {
  absoluteUrl,
  dataOf,
  hintOf,
  imageSource,
  isHidden,
  isSkipped,
  labelOf,
  type Scope,
  tagOf,
  textOf,
} from './dom';
import { headingFor } from './headings';

/** Elements that never hold a list's records. */
const NOT_PARENTS: Record<string, true> = {
  tr: true,
  td: true,
  th: true,
  option: true,
  p: true,
  h1: true,
  h2: true,
  h3: true,
  h4: true,
  h5: true,
  h6: true,
};
/** Elements that are never a record (or the start of one). */
const NOT_RECORDS: Record<string, true> = {
  td: true,
  th: true,
  thead: true,
  tbody: true,
  tfoot: true,
  option: true,
  br: true,
  hr: true,
  p: true,
  script: true,
  style: true,
  link: true,
  meta: true,
  source: true,
  col: true,
  colgroup: true,
  caption: true,
  h1: true,
  h2: true,
  h3: true,
  h4: true,
  h5: true,
  h6: true,
};
/** Containers whose children are list items by definition: one-piece records count there. */
const LISTS: Record<string, true> = { ul: true, ol: true, dl: true, menu: true, tbody: true, table: true };
/** Where a part sits inside its record, when that says what it is (a term, a label). */
const WITHIN: Record<string, true> = { dt: true, dd: true, label: true, figcaption: true, th: true };

const MIN_RECORDS = 3;
const MAX_PARTS = 40;
/** A label part ("Venue:") names the next part; longer text is content, not a label. */
const MAX_LABEL = 40;

function firstClass(el: Element): string {
  const cls = collapseWhitespace(getAttr(el, 'class') ?? '');
  const space = strIndexOf(cls, ' ');
  return space >= 0 ? strSlice(cls, 0, space) : cls;
}

const signatureOf = (el: Element): string => `${tagOf(el)}.${firstClass(el)}`;

function ownText(el: Element): boolean {
  const nodes = el.childNodes;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as Node;
    if (n.nodeType === 3 && collapseWhitespace((n as Text).data) !== '') return true;
  }
  return false;
}

function isHeading(el: Element): boolean {
  return closest(el, 'h1,h2,h3,h4,h5,h6,[role=heading]') !== null;
}

/** Walk state of one record: its parts, and a label ("Venue:") waiting for the part it names. */
interface PartsState {
  parts: RecordPart[];
  label: string;
}

function endsWithColon(text: string): boolean {
  return text.length > 1 && text.length <= MAX_LABEL && text[text.length - 1] === ':';
}

function addPart(state: PartsState, part: RecordPart): void {
  if (state.label && part.label === undefined && part.kind !== 'meta') part.label = state.label;
  state.label = '';
  if (part.kind === 'text' && endsWithColon(part.text)) state.label = strSlice(part.text, 0, part.text.length - 1);
  append(state.parts, part);
}

function partsOf(
  el: Element,
  scope: Scope,
  state: PartsState,
  parentHint: string,
  inText: boolean,
  within: string,
): void {
  if (state.parts.length >= MAX_PARTS) return;
  const tag = tagOf(el);
  if (isSkipped(el, tag)) return;
  if (tag !== 'meta' && tag !== 'link' && isHidden(el, scope)) return;
  const own = hintOf(el);
  const hint = parentHint ? `${own} | ${parentHint}` : own;
  const itemprop = getAttr(el, 'itemprop') ?? undefined;
  const where = WITHIN[tag] === true ? tag : within;
  const base: Pick<RecordPart, 'tag' | 'hint'> = { tag, hint };
  const extra = (part: RecordPart): RecordPart => {
    if (itemprop) part.itemprop = itemprop;
    const label = labelOf(el);
    if (label) part.label = label;
    if (isHeading(el)) part.heading = true;
    if (where) part.within = where;
    const content = getAttr(el, 'content');
    if (content && part.datetime === undefined) part.datetime = content;
    return part;
  };
  let textHere = inText;
  if (tag === 'a' && hasAttr(el, 'href')) {
    const href = absoluteUrl(getAttr(el, 'href'), scope.base);
    if (href) addPart(state, extra({ ...base, kind: 'link', text: textOf(el, scope), href }));
  } else if (tag === 'img') {
    const { src } = imageSource(el, scope.base);
    addPart(state, extra({ ...base, kind: 'image', text: '', src, alt: collapseWhitespace(getAttr(el, 'alt') ?? '') }));
    return;
  } else if (tag === 'time' || tag === 'meta' || tag === 'data' || (tag === 'link' && itemprop)) {
    const value =
      getAttr(el, 'datetime') ?? getAttr(el, 'content') ?? getAttr(el, 'value') ?? getAttr(el, 'href') ?? '';
    addPart(
      state,
      extra({ ...base, kind: tag === 'time' ? 'time' : 'meta', text: textOf(el, scope), datetime: value }),
    );
    if (tag !== 'time' && tag !== 'data') return;
    textHere = true;
  } else if (!inText && ownText(el)) {
    addPart(state, extra({ ...base, kind: 'text', text: textOf(el, scope) }));
    textHere = true;
  } else if (
    itemprop ||
    getAttr(el, 'aria-label') ||
    getAttr(el, 'title') ||
    getAttr(el, 'content') ||
    (inText && (hasAttr(el, 'class') || hasAttr(el, 'id')))
  ) {
    // Named pieces inside running text ("<span class=score>312 points</span> by …") are parts too.
    const text = textOf(el, scope);
    const content = getAttr(el, 'content');
    const part = extra({ ...base, kind: itemprop ? 'meta' : 'text', text });
    if (content) part.datetime = content;
    addPart(state, part);
    if (text !== '') textHere = true;
  }
  const children = el.children;
  for (let i = 0; i < children.length; i++) partsOf(children[i] as Element, scope, state, own, textHere, where);
}

/**
 * "<li><strong>Blue room</strong> — Capacity: 12</li>": bold words that open a record's running
 * text are its title, as a heading would be. Not a label ("Venue:"), nor bold text after other text.
 */
function leadIn(el: Element, scope: Scope): RecordPart | null {
  if (!ownText(el)) return null;
  const nodes = el.childNodes;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as Node;
    if (n.nodeType === 3) {
      if (collapseWhitespace((n as Text).data) !== '') return null;
      continue;
    }
    if (n.nodeType !== 1) continue;
    const tag = tagOf(n as Element);
    if (tag !== 'strong' && tag !== 'b') return null;
    const text = textOf(n as Element, scope);
    if (text === '' || endsWithColon(text) || text.length > 120) return null;
    return { tag, hint: hintOf(n as Element), kind: 'text', text, heading: true };
  }
  return null;
}

/** One record: the parts of each of its elements in order, their text, their data-* attributes. */
function readRecord(members: Element[], scope: Scope): ContentRecord {
  const state: PartsState = { parts: [], label: '' };
  let text = '';
  let data: Record<string, string> = {};
  for (let m = 0; m < members.length; m++) {
    const el = members[m] as Element;
    if (isHidden(el, scope)) continue;
    partsOf(el, scope, state, '', false, '');
    const t = textOf(el, scope);
    if (t) text = text ? `${text} ${t}` : t;
    data = m === 0 ? dataOf(el) : { ...dataOf(el), ...data };
  }
  const lead = members.length === 1 ? leadIn(members[0] as Element, scope) : null;
  if (lead && !state.parts.some((p) => p.heading)) state.parts.unshift(lead);
  const record: ContentRecord = { text, parts: state.parts, data };
  const itemtype = members.length > 0 ? getAttr(members[0] as Element, 'itemtype') : null;
  if (itemtype) record.itemtype = itemtype;
  return record;
}

function describe(el: Element): string {
  const id = getAttr(el, 'id');
  const cls = firstClass(el);
  return `${tagOf(el)}${id ? `#${id}` : ''}${cls ? `.${cls}` : ''}`;
}

/** Whether most of these records carry more than one piece: plain paragraphs and menus do not. */
function richEnough(records: ContentRecord[]): boolean {
  let rich = 0;
  for (let i = 0; i < records.length; i++) if ((records[i] as ContentRecord).parts.length >= 2) rich++;
  return rich * 2 >= records.length;
}

function readMembers(members: Element[][], scope: Scope, max: number): ContentRecord[] {
  const records: ContentRecord[] = [];
  for (let m = 0; m < members.length && records.length < max; m++) {
    const chunk = members[m] as Element[];
    if (isHidden(chunk[0] as Element, scope)) continue;
    const record = readRecord(chunk, scope);
    if (record.text === '' && record.parts.length === 0) continue;
    append(records, record);
  }
  return records;
}

/** Whether `el` holds one of `roots` or sits inside one. */
function overlaps(el: Element, roots: Element[]): boolean {
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i] as Element;
    if (nodeContains(el, root) || nodeContains(root, el)) return true;
  }
  return false;
}

/** A candidate collection among one parent's children: its records as element runs. */
interface Shape {
  signature: string;
  chunks: Element[][];
  /** Records span several siblings. */
  multi: boolean;
}

/**
 * The collections among `children` (the parent's element children that can be records): each
 * signature seen at least three times is a list; when the siblings between its occurrences repeat
 * as well (a companion in nearly every gap), the records are the runs from one occurrence to the next.
 */
function shapesOf(children: Element[]): Shape[] {
  const positions = new SafeMap<string, number[]>();
  const order: string[] = [];
  const sigs: string[] = [];
  for (let i = 0; i < children.length; i++) {
    const sig = signatureOf(children[i] as Element);
    append(sigs, sig);
    let list = positions.get(sig);
    if (!list) {
      list = [];
      positions.set(sig, list);
      append(order, sig);
    }
    append(list, i);
  }
  const consumed = new SafeMap<string, true>();
  const shapes: Shape[] = [];
  for (let o = 0; o < order.length; o++) {
    const sig = order[o] as string;
    const at = positions.get(sig) as number[];
    if (at.length < MIN_RECORDS || consumed.get(sig)) continue;
    let minGap = children.length;
    for (let i = 1; i < at.length; i++)
      if ((at[i] as number) - (at[i - 1] as number) < minGap) minGap = (at[i] as number) - (at[i - 1] as number);
    // A companion: a signature found in nearly every gap between two occurrences.
    let companion = false;
    if (minGap >= 2) {
      const inGaps = new SafeMap<string, number>();
      const candidates: string[] = [];
      for (let i = 1; i < at.length; i++) {
        const seen = new SafeMap<string, true>();
        for (let p = (at[i - 1] as number) + 1; p < (at[i] as number); p++) {
          const s = sigs[p] as string;
          if (seen.get(s)) continue;
          seen.set(s, true);
          const n = (inGaps.get(s) ?? 0) + 1;
          inGaps.set(s, n);
          if (n === 1) append(candidates, s);
        }
      }
      for (let c = 0; c < candidates.length; c++)
        if ((inGaps.get(candidates[c] as string) ?? 0) >= at.length - 2 && at.length - 1 >= 2) companion = true;
    }
    if (!companion) {
      if (strStartsTr(sig)) continue; // Rows of one shape are a table's rows: the table reads them.
      const chunks: Element[][] = [];
      for (let i = 0; i < at.length; i++) append(chunks, [children[at[i] as number] as Element]);
      append(shapes, { signature: sig, chunks, multi: false });
      continue;
    }
    // Records from each occurrence to the next; the last as long as the usual record, within the cycle.
    const cycle = new SafeMap<string, true>();
    cycle.set(sig, true);
    const chunks: Element[][] = [];
    const lengths: number[] = [];
    for (let i = 0; i < at.length; i++) {
      const from = at[i] as number;
      const chunk: Element[] = [];
      if (i + 1 < at.length) {
        for (let p = from; p < (at[i + 1] as number); p++) {
          append(chunk, children[p] as Element);
          cycle.set(sigs[p] as string, true);
        }
        append(lengths, chunk.length);
      } else {
        const usual = median(lengths);
        for (let p = from; p < children.length && p < from + usual; p++) {
          if (p > from && !cycle.get(sigs[p] as string)) break;
          append(chunk, children[p] as Element);
        }
      }
      append(chunks, chunk);
    }
    let signature = '';
    const first = chunks[0] as Element[];
    for (let i = 0; i < first.length; i++) signature += `${i === 0 ? '' : '+'}${signatureOf(first[i] as Element)}`;
    for (let i = 0; i < first.length; i++) consumed.set(signatureOf(first[i] as Element), true);
    append(shapes, { signature, chunks, multi: true });
  }
  return shapes;
}

const strStartsTr = (sig: string): boolean => sig[0] === 't' && sig[1] === 'r' && sig[2] === '.';

function median(values: number[]): number {
  if (values.length === 0) return 1;
  const sorted = arrSort(values, (a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1] as number;
}

/** The children of `parent` that may be records (or parts of multi-sibling records). */
function candidatesIn(parent: Element): Element[] {
  const out: Element[] = [];
  const children = parent.children;
  for (let c = 0; c < children.length; c++) {
    const child = children[c] as Element;
    const tag = tagOf(child);
    if (NOT_RECORDS[tag] === true || isSkipped(child, tag)) continue;
    append(out, child);
  }
  return out;
}

/**
 * Every collection of at least three records. The shape is judged on the whole page, so a viewport
 * showing only one or two records of a list still has them.
 */
export function readRecords(scope: Scope, maxRecords: number, articleRoots: Element[]): RecordGroup[] {
  const page: Scope = scope.fullPage
    ? scope
    : { ...scope, fullPage: true, hidden: new SafeWeakMap<Element, boolean>() };
  const groups: RecordGroup[] = [];
  const all = docQueryAll(scope.doc, 'body, body *');
  for (let i = 0; i < all.length; i++) {
    const parent = all[i] as Element;
    const parentTag = tagOf(parent);
    if (parent.childElementCount < MIN_RECORDS || isSkipped(parent, parentTag) || NOT_PARENTS[parentTag]) continue;
    const children = candidatesIn(parent);
    if (children.length < MIN_RECORDS) continue;
    const shapes = shapesOf(children);
    if (shapes.length === 0 || isHidden(parent, page)) continue;
    for (let s = 0; s < shapes.length; s++) {
      const shape = shapes[s] as Shape;
      let records = readMembers(shape.chunks, page, scope.fullPage ? maxRecords : 10);
      if (records.length < MIN_RECORDS) continue;
      const listy = shape.multi || LISTS[parentTag] === true || firstClass(shape.chunks[0]?.[0] as Element) !== '';
      if (!listy && !richEnough(records)) continue;
      if (!scope.fullPage) {
        records = readMembers(shape.chunks, scope, maxRecords);
        if (records.length === 0) continue;
      }
      const group: RecordGroup = {
        signature: shape.signature,
        container: describe(parent),
        in_nav: closest(parent, 'nav,header,footer,aside,[role=navigation]') !== null,
        in_article: overlaps(parent, articleRoots),
        records,
      };
      const heading = headingFor(parent, scope);
      if (heading) group.heading = heading;
      append(groups, group);
    }
  }
  // Biggest groups first is what callers want most; ties keep document order.
  return arrSort(groups, (a, b) => b.records.length - a.records.length);
}
