/**
 * Where a page's article is, the way Readability-style extractors find it: paragraphs score their
 * parent and ancestors (longer text and more commas score more; class names such as "article" or
 * "comment" weigh in), link-heavy candidates lose score, the best one and its fitting siblings form
 * the article, and then boilerplate inside it is left out (sharing bars, forms, link lists, asides,
 * footers, blocks with more links or images than text). When that keeps too little text, it tries
 * again with fewer filters. The page is only read: the result is a set of root elements and a set
 * of elements left out, which the block walk turns into the article's Markdown.
 */
import type { ContentArticle } from '../content-schema';
import { docQueryAll, elQueryAll, getAttr, hasAttr, nodeContains } from '../dom-intrinsics';
import { append, arrSort, mathFloor, mathMax, mathMin, mathSqrt, SafeWeakMap } from '../intrinsics';
import { looksLikeSharing, looksNegative, looksPositive } from './article-patterns';
import { type Info, type Scan, scanArticle } from './article-scan';
import { type Scope, tagOf, textOf } from './dom';

/** Which elements the article is made of, for the block walk. */
export interface ArticleMarks {
  /** The article's top-level elements, in document order. */
  roots: Element[];
  isRoot(el: Element): boolean;
  /** Left out of the article (with everything inside): boilerplate, hidden, the byline. */
  isLeftOut(el: Element): boolean;
}

export interface ArticleReading {
  summary: ContentArticle;
  marks: ArticleMarks | null;
}

interface Flags {
  stripUnlikely: boolean;
  weightClasses: boolean;
  cleanConditionally: boolean;
}

const ATTEMPTS: Flags[] = [
  { stripUnlikely: true, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
];
/** An article shorter than this (characters) is probably the wrong block: try again with fewer filters. */
const CHAR_THRESHOLD = 500;
const TOP_CANDIDATES = 5;
const MIN_SHARED_ANCESTRY = 3;

const TAG_SCORE: Record<string, number> = {
  div: 5,
  pre: 3,
  td: 3,
  blockquote: 3,
  address: -3,
  ol: -3,
  ul: -3,
  dl: -3,
  dd: -3,
  dt: -3,
  li: -3,
  form: -3,
  h1: -5,
  h2: -5,
  h3: -5,
  h4: -5,
  h5: -5,
  h6: -5,
  th: -5,
};

function classWeight(info: Info, flags: Flags): number {
  if (!flags.weightClasses) return 0;
  let weight = 0;
  if (info.cls) {
    if (looksNegative(info.cls)) weight -= 25;
    if (looksPositive(info.cls)) weight += 25;
  }
  if (info.id) {
    if (looksNegative(info.id)) weight -= 25;
    if (looksPositive(info.id)) weight += 25;
  }
  return weight;
}

const linkDensity = (info: Info): number => (info.text > 0 ? info.link / info.text : 0);

function initScore(info: Info, flags: Flags, candidates: Info[]): void {
  if (info.score !== undefined) return;
  info.score = (TAG_SCORE[info.tag] ?? 0) + classWeight(info, flags);
  append(candidates, info);
}

/** Paragraphs score their parent fully, the grandparent half, and further ancestors less. */
function scoreParagraphs(scan: Scan, flags: Flags): Info[] {
  const candidates: Info[] = [];
  for (let i = 0; i < scan.paragraphs.length; i++) {
    const p = scan.paragraphs[i]!;
    if (p.text < 25) continue;
    const score = 1 + p.commas + mathMin(mathFloor(p.text / 100), 3);
    let ancestor: Info | null = p.parent;
    for (let level = 0; ancestor && level < 5; level++, ancestor = ancestor.parent) {
      initScore(ancestor, flags, candidates);
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      ancestor.score = (ancestor.score ?? 0) + score / divider;
    }
  }
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    c.score = (c.score ?? 0) * (1 - linkDensity(c));
  }
  return candidates;
}

function ancestorsOf(info: Info): Info[] {
  const out: Info[] = [];
  for (let p = info.parent; p; p = p.parent) append(out, p);
  return out;
}

/** The best candidate, moved up to a shared ancestor or a better-scoring parent where that fits. */
function pickTop(scan: Scan, candidates: Info[], flags: Flags): Info {
  const sorted = arrSort(candidates, (a, b) => (b.score ?? 0) - (a.score ?? 0));
  let top = sorted[0];
  if (!top || top === scan.body) return scan.body;
  const topScore = top.score ?? 0;
  // Several near-best candidates under one ancestor: the article is that ancestor.
  const lists: Info[][] = [];
  for (let i = 1; i < sorted.length && i < TOP_CANDIDATES; i++) {
    const c = sorted[i]!;
    if (topScore > 0 && (c.score ?? 0) / topScore >= 0.75) append(lists, ancestorsOf(c));
  }
  if (lists.length >= MIN_SHARED_ANCESTRY) {
    for (let parent = top.parent; parent && parent !== scan.body; parent = parent.parent) {
      let containing = 0;
      for (let l = 0; l < lists.length && containing < MIN_SHARED_ANCESTRY; l++) {
        const list = lists[l]!;
        for (let k = 0; k < list.length; k++) {
          if (list[k] === parent) {
            containing++;
            break;
          }
        }
      }
      if (containing >= MIN_SHARED_ANCESTRY) {
        top = parent;
        break;
      }
    }
  }
  initScore(top, flags, []);
  // A parent scoring higher than the candidate holds more of the article.
  let last = top.score ?? 0;
  const threshold = last / 3;
  for (let parent = top.parent; parent && parent !== scan.body; parent = parent.parent) {
    if (parent.score === undefined) continue;
    if (parent.score < threshold) break;
    if (parent.score > last) {
      top = parent;
      break;
    }
    last = parent.score;
  }
  // An only child stands for its parent.
  while (top.parent && top.parent !== scan.body && top.parent.kids === 1) top = top.parent;
  initScore(top, flags, []);
  return top;
}

/** Whether text ends a sentence somewhere (". " or a final "."). */
function hasSentenceEnd(text: string): boolean {
  for (let i = 0; i < text.length; i++)
    if (text[i] === '.' && (i + 1 === text.length || text[i + 1] === ' ')) return true;
  return false;
}

/** The top candidate and the siblings that belong with it, in document order. */
function pickRoots(scan: Scan, top: Info, scope: Scope): Info[] {
  const parent = top.parent;
  if (!parent || top === scan.body) return [top];
  const topScore = top.score ?? 0;
  const threshold = mathMax(10, topScore * 0.2);
  const roots: Info[] = [];
  const children = parent.el.children;
  for (let i = 0; i < children.length; i++) {
    const sibling = scan.infos.get(children[i] as Element);
    if (!sibling) continue;
    if (sibling === top) {
      append(roots, sibling);
      continue;
    }
    const bonus = top.cls !== '' && sibling.cls === top.cls ? topScore * 0.2 : 0;
    if (sibling.score !== undefined && sibling.score + bonus >= threshold) {
      append(roots, sibling);
    } else if (sibling.tag === 'p' || sibling.asParagraph) {
      const density = linkDensity(sibling);
      if (sibling.text > 80 && density < 0.25) append(roots, sibling);
      else if (sibling.text > 0 && sibling.text < 80 && density === 0 && hasSentenceEnd(textOf(sibling.el, scope)))
        append(roots, sibling);
    }
  }
  return roots;
}

function hasAncestor(info: Info, test: (a: Info) => boolean): boolean {
  for (let p = info.parent; p; p = p.parent) if (test(p)) return true;
  return false;
}

function isRemoved(info: Info): boolean {
  for (let p: Info | null = info; p; p = p.parent) if (p.removed) return true;
  return false;
}

/** Takes an element out of the article and its text out of every ancestor's sums. */
function remove(info: Info): void {
  info.removed = true;
  for (let a = info.parent; a; a = a.parent) {
    a.text -= info.text;
    a.link -= info.link;
    a.commas -= info.commas;
    a.p -= info.p;
    a.img -= info.img;
    a.li -= info.li;
    a.liText -= info.liText;
    a.input -= info.input;
    a.embed -= info.embed;
    a.headingText -= info.headingText;
  }
}

/** A table of data (headers, a caption, many cells) rather than a layout grid. */
export function isDataTable(el: Element, scope: Scope): boolean {
  const role = getAttr(el, 'role');
  if (role === 'presentation' || getAttr(el, 'datatable') === '0') return false;
  if (hasAttr(el, 'summary')) return true;
  const captions = elQueryAll(el, 'caption');
  if (captions.length > 0 && textOf(captions[0] as Element, scope) !== '') return true;
  if (elQueryAll(el, 'col, colgroup, tfoot, thead, th').length > 0) return true;
  if (elQueryAll(el, 'table').length > 0) return false;
  const rows = elQueryAll(el, 'tr');
  let columns = 0;
  for (let r = 0; r < rows.length; r++) columns = mathMax(columns, (rows[r] as Element).children.length);
  return rows.length >= 10 || columns > 4 || rows.length * columns > 10;
}

const REMOVE_ALWAYS: Record<string, true> = {
  object: true,
  embed: true,
  footer: true,
  link: true,
  aside: true,
  iframe: true,
  input: true,
  textarea: true,
  select: true,
  button: true,
  nav: true,
};
const CONDITIONAL_ORDER = ['form', 'fieldset', 'table', 'ul', 'div'];

/** Whether a block of the article is boilerplate by its shape: link lists, image strips, forms. */
function shouldDrop(info: Info, flags: Flags): boolean {
  const weight = classWeight(info, flags);
  if (weight < 0) return true;
  if (info.commas >= 10) return false;
  const p = info.p;
  const img = info.img;
  const li = info.li - 100;
  const isList = info.tag === 'ul' || info.tag === 'ol' || (info.text > 0 && info.liText / info.text > 0.9);
  const inFigure = hasAncestor(info, (a) => a.tag === 'figure');
  const headingDensity = info.text > 0 ? info.headingText / info.text : 0;
  const density = linkDensity(info);
  return (
    (img > 1 && p / img < 0.5 && !inFigure) ||
    (!isList && li > p) ||
    info.input > mathFloor(p / 3) ||
    (!isList && headingDensity < 0.9 && info.text < 25 && (img === 0 || img > 2) && !inFigure) ||
    (!isList && weight < 25 && density > 0.2) ||
    (weight >= 25 && density > 0.5) ||
    (info.embed === 1 && info.text < 75) ||
    info.embed > 1
  );
}

/** Leaves out the boilerplate inside the article, innermost first (as its sums shrink). */
function clean(scan: Scan, roots: Info[], flags: Flags, scope: Scope): void {
  const rootSet = new SafeWeakMap<Info, true>();
  for (let i = 0; i < roots.length; i++) rootSet.set(roots[i]!, true);
  const inside: Info[] = [];
  const under = new SafeWeakMap<Info, boolean>();
  for (let i = 0; i < scan.all.length; i++) {
    const info = scan.all[i]!;
    const within = rootSet.get(info) === true || (info.parent !== null && under.get(info.parent) === true);
    under.set(info, within);
    if (within) append(inside, info);
  }
  const dataTables = new SafeWeakMap<Info, boolean>();
  const inData = (info: Info) => hasAncestor(info, (a) => dataTables.get(a) === true);
  for (let i = 0; i < inside.length; i++) {
    const info = inside[i]!;
    if (info.tag === 'table') dataTables.set(info, isDataTable(info.el, scope));
  }
  for (let i = inside.length - 1; i >= 0; i--) {
    const info = inside[i]!;
    if (rootSet.get(info) === true || isRemoved(info)) continue;
    if (REMOVE_ALWAYS[info.tag] === true) remove(info);
    else if (looksLikeSharing(info.name) && info.text < 500) remove(info);
    else if ((info.tag === 'h1' || info.tag === 'h2') && classWeight(info, flags) < 0) remove(info);
  }
  if (!flags.cleanConditionally) return;
  for (let t = 0; t < CONDITIONAL_ORDER.length; t++) {
    const tag = CONDITIONAL_ORDER[t];
    for (let i = inside.length - 1; i >= 0; i--) {
      const info = inside[i]!;
      if (info.tag !== tag || rootSet.get(info) === true || isRemoved(info)) continue;
      if (dataTables.get(info) === true || inData(info) || hasAncestor(info, (a) => a.tag === 'code')) continue;
      if (shouldDrop(info, flags)) remove(info);
    }
  }
}

interface Attempt {
  scan: Scan;
  roots: Info[];
  text: number;
}

function attempt(scope: Scope, flags: Flags, byline: Element | null | undefined): Attempt | null {
  const scan = scanArticle(scope, flags, byline);
  if (!scan) return null;
  const top = pickTop(scan, scoreParagraphs(scan, flags), flags);
  const roots = pickRoots(scan, top, scope);
  clean(scan, roots, flags, scope);
  let text = 0;
  for (let i = 0; i < roots.length; i++) if (!roots[i]!.removed) text += roots[i]!.text;
  return { scan, roots, text };
}

/** Readerable: enough long paragraphs outside boilerplate (sum of sqrt(length - 140) over 20). */
function readerable(scan: Scan): boolean {
  let score = 0;
  for (let i = 0; i < scan.all.length; i++) {
    const info = scan.all[i]!;
    if (info.tag !== 'p' && info.tag !== 'pre' && info.tag !== 'article') continue;
    if (info.tag === 'p' && hasAncestor(info, (a) => a.tag === 'li')) continue;
    if (info.text < 140) continue;
    score += mathSqrt(info.text - 140);
    if (score > 20) return true;
  }
  return false;
}

function marksOf(best: Attempt): ArticleMarks {
  const roots = new SafeWeakMap<Element, true>();
  const list: Element[] = [];
  for (let i = 0; i < best.roots.length; i++) {
    roots.set(best.roots[i]!.el, true);
    append(list, best.roots[i]!.el);
  }
  const { infos, bylineEl } = best.scan;
  return {
    roots: list,
    isRoot: (el) => roots.get(el) === true,
    isLeftOut: (el) => {
      if (el === bylineEl) return true;
      const info = infos.get(el);
      return info === undefined || info.removed === true;
    },
  };
}

/** The page marks the body as its one article: a lone <article> or [itemprop=articleBody] holds it. */
function markedAsArticle(scope: Scope, roots: Info[]): boolean {
  const marked = docQueryAll(scope.doc, 'article, [itemprop="articleBody"]');
  let single: Element | null = null;
  let articles = 0;
  for (let i = 0; i < marked.length; i++) {
    const el = marked[i] as Element;
    if (tagOf(el) === 'article') articles++;
    if (getAttr(el, 'itemprop') === 'articleBody' || single === null) single = el;
  }
  if (!single || (articles > 1 && getAttr(single, 'itemprop') !== 'articleBody')) return false;
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i]!.el;
    if (!nodeContains(single, root) && !nodeContains(root, single)) return false;
  }
  return roots.length > 0;
}

/** Finds the article: its elements for the block walk, whether the page reads as one, and its byline. */
export function readArticle(scope: Scope): ArticleReading {
  let best: Attempt | null = null;
  let byline: Element | null | undefined;
  let bylineText = '';
  let isReaderable = false;
  for (let a = 0; a < ATTEMPTS.length; a++) {
    const result = attempt(scope, ATTEMPTS[a]!, byline);
    if (!result) break;
    if (a === 0) isReaderable = readerable(result.scan);
    // As Readability does: a retry with looser flags may find the byline the first pass stripped
    // (an author link in an "entry-header"); once found it is kept and left out of later attempts.
    if (byline === undefined && result.scan.bylineEl !== null) {
      byline = result.scan.bylineEl;
      bylineText = result.scan.byline;
    }
    if (!best || result.text > best.text) best = result;
    if (result.text >= CHAR_THRESHOLD) break;
  }
  const summary: ContentArticle = {
    readerable: isReaderable,
    byline: bylineText || null,
    chars: best?.text ?? 0,
    marked: best ? markedAsArticle(scope, best.roots) : false,
  };
  return { summary, marks: best && best.text > 0 ? marksOf(best) : null };
}
