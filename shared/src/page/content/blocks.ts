/** The page as blocks in document order: headings, paragraphs, lists, tables, images. */
import type { ContentBlock, ContentTable } from '../content-schema';
import { getAttr } from '../dom-intrinsics';
import { append, joinStrings, strCharCodeAt, toNumber } from '../intrinsics';
import { collapseWhitespace } from '../text';
import { type ArticleMarks, isDataTable } from './article';
import { INLINE_TAGS, imageSource, isHidden, isSkipped, markdownOf, type Scope, tagOf, textOf } from './dom';
import { readTable } from './tables';

const NAV_TAGS: Record<string, true> = { nav: true, header: true, footer: true, aside: true };

interface WalkState {
  scope: Scope;
  mainRoot: Element | null;
  article: ArticleMarks | null;
  blocks: ContentBlock[];
  tables: ContentTable[];
}

interface Where {
  main: boolean;
  nav: boolean;
  article: boolean;
}

/** True when every child element is inline: the element reads as one paragraph. */
function inlineOnly(el: Element): boolean {
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const tag = tagOf(children[i] as Element);
    if (INLINE_TAGS[tag] !== true && !isSkipped(children[i] as Element, tag)) return false;
    if (tag === 'a' || tag === 'span' || tag === 'label') {
      if (!inlineOnly(children[i] as Element)) return false;
    }
  }
  return true;
}

function push(state: WalkState, where: Where, block: Omit<ContentBlock, 'main' | 'nav' | 'article'>): void {
  if (block.text === '' && block.kind !== 'image' && block.kind !== 'table') return;
  append(state.blocks, { ...block, main: where.main, nav: where.nav, article: where.article });
}

function headingLevel(tag: string): number {
  if (tag.length === 2 && tag[0] === 'h') {
    const d = strCharCodeAt(tag, 1) - 48;
    if (d >= 1 && d <= 6) return d;
  }
  return 0;
}

function hashes(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '#';
  return s;
}

function listBlock(el: Element, state: WalkState, where: Where): boolean {
  const items = el.children;
  for (let i = 0; i < items.length; i++) {
    const li = items[i] as Element;
    if (tagOf(li) === 'li' && !inlineOnly(li)) return false;
  }
  const ordered = tagOf(el) === 'ol';
  const texts: string[] = [];
  const mds: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const li = items[i] as Element;
    if (tagOf(li) !== 'li' || isHidden(li, state.scope)) continue;
    const text = textOf(li, state.scope);
    if (text === '') continue;
    append(texts, text);
    append(mds, `${ordered ? `${mds.length + 1}.` : '-'} ${markdownOf(li, state.scope)}`);
  }
  push(state, where, { kind: 'list', text: joinStrings(texts, '\n'), md: joinStrings(mds, '\n') });
  return true;
}

function walk(el: Element, state: WalkState, outer: Where): void {
  const tag = tagOf(el);
  if (isSkipped(el, tag)) return;
  if (isHidden(el, state.scope)) return;
  const role = getAttr(el, 'role');
  const marks = state.article;
  const where: Where = {
    main: outer.main || el === state.mainRoot,
    nav: outer.nav || NAV_TAGS[tag] === true || role === 'navigation' || role === 'banner' || role === 'contentinfo',
    article: marks !== null && (marks.isRoot(el) || (outer.article && !marks.isLeftOut(el))),
  };
  const scope = state.scope;
  const level = headingLevel(tag);
  if (level > 0 || role === 'heading') {
    const n = level || toNumber(getAttr(el, 'aria-level') ?? '2') || 2;
    const text = textOf(el, scope);
    push(state, where, { kind: 'heading', text, md: `${hashes(n)} ${markdownOf(el, scope)}`, level: n });
    return;
  }
  if (tag === 'table') {
    const table = readTable(el, scope);
    append(state.tables, table);
    // A layout grid is read as the content of its cells; a table of data as a table.
    if (isDataTable(el, scope)) {
      push(state, where, { kind: 'table', text: table.caption, md: '', table: state.tables.length - 1 });
      return;
    }
  }
  if ((tag === 'ul' || tag === 'ol') && listBlock(el, state, where)) return;
  if (tag === 'pre') {
    const text = collapseWhitespace(el.textContent ?? '');
    push(state, where, { kind: 'code', text, md: `\`\`\`\n${el.textContent ?? ''}\n\`\`\`` });
    return;
  }
  if (tag === 'img') {
    const { src } = imageSource(el, scope.base);
    const alt = collapseWhitespace(getAttr(el, 'alt') ?? '');
    if (src) push(state, where, { kind: 'image', text: alt, md: `![${alt}](${src})` });
    return;
  }
  if (inlineOnly(el)) {
    const text = textOf(el, scope);
    const md = markdownOf(el, scope);
    if (text !== '' || md !== '') {
      const kind = tag === 'blockquote' ? 'quote' : 'text';
      push(state, where, { kind, text: text === '' ? md : text, md: kind === 'quote' ? `> ${md}` : md });
    }
    return;
  }
  const children = el.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as Node;
    if (child.nodeType === 3) {
      const text = collapseWhitespace((child as Text).data);
      if (text !== '') push(state, where, { kind: 'text', text, md: text });
    } else if (child.nodeType === 1) {
      walk(child as Element, state, where);
    }
  }
}

/** Walks the body into blocks; tables go to `tables`, referenced by index. */
export function readBlocks(
  scope: Scope,
  mainRoot: Element | null,
  article: ArticleMarks | null,
): { blocks: ContentBlock[]; tables: ContentTable[] } {
  const state: WalkState = { scope, mainRoot, article, blocks: [], tables: [] };
  const body = scope.doc.body;
  if (body) walk(body, state, { main: mainRoot === null, nav: false, article: false });
  return { blocks: state.blocks, tables: state.tables };
}
