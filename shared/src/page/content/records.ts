/** Repeated records: sibling elements of the same shape (cards, search results, list rows). */
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

const NOT_RECORDS: Record<string, true> = {
  tr: true,
  td: true,
  th: true,
  thead: true,
  tbody: true,
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
  h1: true,
  h2: true,
  h3: true,
  h4: true,
  h5: true,
  h6: true,
};
const MIN_RECORDS = 3;
const MAX_PARTS = 40;

function firstClass(el: Element): string {
  const cls = collapseWhitespace(getAttr(el, 'class') ?? '');
  const space = strIndexOf(cls, ' ');
  return space >= 0 ? strSlice(cls, 0, space) : cls;
}

function signatureOf(el: Element): string {
  return `${tagOf(el)}.${firstClass(el)}`;
}

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

function partsOf(el: Element, scope: Scope, parts: RecordPart[], parentHint: string, inText: boolean): void {
  if (parts.length >= MAX_PARTS) return;
  const tag = tagOf(el);
  if (isSkipped(el, tag)) return;
  if (tag !== 'meta' && tag !== 'link' && isHidden(el, scope)) return;
  const own = hintOf(el);
  const hint = parentHint ? `${own} | ${parentHint}` : own;
  const itemprop = getAttr(el, 'itemprop') ?? undefined;
  const base: Pick<RecordPart, 'tag' | 'hint'> = { tag, hint };
  const extra = (part: RecordPart): RecordPart => {
    if (itemprop) part.itemprop = itemprop;
    const label = labelOf(el);
    if (label) part.label = label;
    if (isHeading(el)) part.heading = true;
    const content = getAttr(el, 'content');
    if (content && part.datetime === undefined) part.datetime = content;
    return part;
  };
  let textHere = inText;
  if (tag === 'a' && hasAttr(el, 'href')) {
    const href = absoluteUrl(getAttr(el, 'href'), scope.base);
    if (href) append(parts, extra({ ...base, kind: 'link', text: textOf(el, scope), href }));
  } else if (tag === 'img') {
    const { src } = imageSource(el, scope.base);
    append(parts, extra({ ...base, kind: 'image', text: '', src, alt: collapseWhitespace(getAttr(el, 'alt') ?? '') }));
    return;
  } else if (tag === 'time' || tag === 'meta' || tag === 'data' || (tag === 'link' && itemprop)) {
    const value =
      getAttr(el, 'datetime') ?? getAttr(el, 'content') ?? getAttr(el, 'value') ?? getAttr(el, 'href') ?? '';
    append(parts, extra({ ...base, kind: tag === 'time' ? 'time' : 'meta', text: textOf(el, scope), datetime: value }));
    if (tag !== 'time' && tag !== 'data') return;
    textHere = true;
  } else if (!inText && ownText(el)) {
    append(parts, extra({ ...base, kind: 'text', text: textOf(el, scope) }));
    textHere = true;
  } else if (!inText && (itemprop || getAttr(el, 'aria-label') || getAttr(el, 'content'))) {
    const text = textOf(el, scope);
    const content = getAttr(el, 'content');
    const part = extra({ ...base, kind: itemprop ? 'meta' : 'text', text });
    if (content) part.datetime = content;
    append(parts, part);
    if (text !== '') textHere = true;
  }
  const children = el.children;
  for (let i = 0; i < children.length; i++) partsOf(children[i] as Element, scope, parts, own, textHere);
}

function readRecord(el: Element, scope: Scope): ContentRecord {
  const parts: RecordPart[] = [];
  partsOf(el, scope, parts, '', false);
  const record: ContentRecord = { text: textOf(el, scope), parts, data: dataOf(el) };
  const itemtype = getAttr(el, 'itemtype');
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
  return records.length >= MIN_RECORDS && rich * 2 >= records.length;
}

function readMembers(members: Element[], scope: Scope, max: number): ContentRecord[] {
  const records: ContentRecord[] = [];
  for (let m = 0; m < members.length && records.length < max; m++) {
    const member = members[m] as Element;
    if (isHidden(member, scope)) continue;
    const record = readRecord(member, scope);
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

/**
 * Groups of at least three same-shaped visible siblings that carry more than one piece each. The shape
 * is judged on the whole page, so a viewport showing only one or two records of a list still has them.
 */
export function readRecords(scope: Scope, maxRecords: number, articleRoots: Element[]): RecordGroup[] {
  const page: Scope = scope.fullPage
    ? scope
    : { ...scope, fullPage: true, hidden: new SafeWeakMap<Element, boolean>() };
  const groups: RecordGroup[] = [];
  const all = docQueryAll(scope.doc, 'body *');
  for (let i = 0; i < all.length; i++) {
    const parent = all[i] as Element;
    if (parent.childElementCount < MIN_RECORDS || isSkipped(parent, tagOf(parent)) || NOT_RECORDS[tagOf(parent)])
      continue;
    const buckets = new SafeMap<string, Element[]>();
    const order: string[] = [];
    const children = parent.children;
    for (let c = 0; c < children.length; c++) {
      const child = children[c] as Element;
      if (NOT_RECORDS[tagOf(child)] || isSkipped(child, tagOf(child))) continue;
      const sig = signatureOf(child);
      let bucket = buckets.get(sig);
      if (!bucket) {
        bucket = [];
        buckets.set(sig, bucket);
        append(order, sig);
      }
      append(bucket, child);
    }
    for (let o = 0; o < order.length; o++) {
      const sig = order[o] as string;
      const members = buckets.get(sig) as Element[];
      if (members.length < MIN_RECORDS) continue;
      if (isHidden(parent, page)) break;
      let records = readMembers(members, page, scope.fullPage ? maxRecords : 10);
      if (!richEnough(records)) continue;
      if (!scope.fullPage) {
        records = readMembers(members, scope, maxRecords);
        if (records.length === 0) continue;
      }
      append(groups, {
        signature: sig,
        container: describe(parent),
        in_nav: closest(parent, 'nav,header,footer,aside,[role=navigation]') !== null,
        in_article: overlaps(parent, articleRoots),
        records,
      });
    }
  }
  // Biggest groups first is what callers want most; ties keep document order.
  return arrSort(groups, (a, b) => b.records.length - a.records.length);
}
