/** The content model for retrieve: blocks, links, images, tables, repeated records and metadata. */
import type { ContentImage, ContentLink, ContentOptions, PageContent } from '../content-schema';
import { docQueryAll, elQueryAll, getAttr, getRect } from '../dom-intrinsics';
import { append, dateNow, SafeWeakMap, uncurry } from '../intrinsics';
import { readArticle } from './article';
import { readBlocks } from './blocks';
import { absoluteUrl, hidesWholeBody, imageSource, isHidden, labelOf, type Scope, textOf } from './dom';
import { readMetadata } from './metadata';
import { readRecords } from './records';

/** main, [role=main], or the one article of the page: where the main content is. */
function findMain(doc: Document): Element | null {
  const main = docQueryAll(doc, 'main, [role=main]');
  if (main.length > 0) return main[0] as Element;
  const articles = docQueryAll(doc, 'article');
  return articles.length === 1 ? (articles[0] as Element) : null;
}

function ancestorsVisible(el: Element, scope: Scope): boolean {
  let p: Element | null = el;
  while (p) {
    if (isHidden(p, scope)) return false;
    p = p.parentElement;
  }
  return true;
}

function readLinks(scope: Scope): ContentLink[] {
  const out: ContentLink[] = [];
  const all = docQueryAll(scope.doc, 'body a[href]');
  for (let i = 0; i < all.length; i++) {
    const a = all[i] as Element;
    const href = absoluteUrl(getAttr(a, 'href'), scope.base);
    if (!href || !ancestorsVisible(a, scope)) continue;
    let text = textOf(a, scope) || labelOf(a);
    if (text === '') {
      const imgs = elQueryAll(a, 'img');
      text = imgs.length > 0 ? (getAttr(imgs[0] as Element, 'alt') ?? '') : '';
    }
    append(out, { text, href });
  }
  return out;
}

function readImages(scope: Scope): ContentImage[] {
  const out: ContentImage[] = [];
  const all = docQueryAll(scope.doc, 'body img');
  for (let i = 0; i < all.length; i++) {
    const img = all[i] as Element;
    const { src, lazy } = imageSource(img, scope.base);
    if (!src) continue;
    // A lazy image not laid out yet (0×0) still counts when its source is known.
    if (!ancestorsVisible(img, scope)) continue;
    append(out, { src, alt: getAttr(img, 'alt') ?? '', lazy });
  }
  return out;
}

/** Reads the page's content (DESIGN §3): what retrieve turns into items. */
export function takeContent(win: Window, options: Partial<ContentOptions>): PageContent {
  const doc = win.document;
  const scope: Scope = {
    win,
    doc,
    fullPage: options.full_page ?? true,
    aria: options.render_js ?? false,
    base: doc.baseURI,
    hidden: new SafeWeakMap<Element, boolean>(),
    bodyHidden: hidesWholeBody(doc),
  };
  const mainRoot = findMain(doc);
  const article = readArticle(scope);
  const { blocks, tables } = readBlocks(scope, mainRoot, article.marks);
  return {
    url: doc.URL,
    title: doc.title,
    lang: getAttr(doc.documentElement, 'lang') ?? '',
    blocks,
    links: readLinks(scope),
    images: readImages(scope),
    tables,
    records: readRecords(scope, options.max_records ?? 2000, article.marks?.roots ?? []),
    metadata: readMetadata(scope),
    has_main: mainRoot !== null,
    article: article.summary,
    full_page: scope.fullPage,
  };
}

const rafOf = (win: Window) => uncurry(win.requestAnimationFrame) as (self: Window, fn: () => void) => number;

/**
 * Scrolls to the bottom until the page stops growing or `maxMs` pass, so lazy lists load. After each
 * scroll it polls for the document to grow; it gives up on a scroll only after `quietMs` and at least
 * `quietFrames` rendered frames (a loaded machine renders slowly, and observers fire on frames).
 * Quiet at the bottom, it scrolls up a screen and back once per page height before it stops.
 */
export async function scrollToBottom(
  win: Window,
  sleep: (ms: number) => Promise<void>,
  maxMs: number,
  quietMs = 700,
  quietFrames = 10,
): Promise<{ reached_bottom: boolean; ms: number; height: number }> {
  const started = dateNow();
  const deadline = started + maxMs;
  const el = win.document.scrollingElement ?? win.document.documentElement;
  const raf = rafOf(win);
  // One frame counter for the whole scroll: the quiet wait and the waits below read it.
  let frames = 0;
  let counting = true;
  const tick = () => {
    frames++;
    if (counting) raf(win, tick);
  };
  raf(win, tick);
  // Waits for `n` more rendered frames; at most 50 ms a frame, since hidden tabs render none.
  const waitFrames = async (n: number) => {
    const until = frames + n;
    for (let waited = 0; frames < until && waited < 50 * n; waited += 16) await sleep(16);
  };
  let atBottom = false;
  let nudgedAt = -1;
  try {
    while (dateNow() < deadline) {
      const height = el.scrollHeight;
      el.scrollTop = height;
      const firstFrame = frames;
      const quietUntil = dateNow() + quietMs;
      let grew = false;
      while (dateNow() < deadline && (dateNow() < quietUntil || frames - firstFrame < quietFrames)) {
        await sleep(50);
        if (el.scrollHeight > height) {
          grew = true;
          break;
        }
      }
      atBottom = el.scrollTop + win.innerHeight >= el.scrollHeight - 2;
      if (grew) {
        // Let a frame render before the next scroll: an IntersectionObserver only reports a sentinel
        // entering the viewport again if one of its frames saw the sentinel pushed out of it first.
        await waitFrames(2);
        continue;
      }
      if (!atBottom) continue;
      if (nudgedAt === el.scrollHeight) break;
      // At the bottom and quiet: scroll up a screen and back once per height, for loaders whose
      // observer missed the last arrival, before calling it the end.
      nudgedAt = el.scrollHeight;
      el.scrollTop = el.scrollHeight - 2 * win.innerHeight;
      await waitFrames(2);
    }
  } finally {
    counting = false;
  }
  // Touch layout once more so the last batch is measured before extraction.
  getRect(el);
  return { reached_bottom: atBottom, ms: dateNow() - started, height: el.scrollHeight };
}
