/**
 * An article's title, byline, date, site name and description, by the precedence readers use:
 * the page's JSON-LD article node, then its meta tags (Dublin Core, Open Graph, Twitter, Parse.ly),
 * then what it shows (the `<title>` with the site name cut, the `<h1>`, the byline element). Pure.
 */
import type { PageContent } from '@tandem/shared';
import { IGNORED_TYPES, type Json, ldNodes, ldText, typeOf } from './jsonld';
import { parseDate } from './values';

export interface ArticleMeta {
  title: string | null;
  byline: string | null;
  date: string | null;
  site_name: string | null;
  description: string | null;
}

const ARTICLE_TYPES = new Set([
  'Article',
  'AdvertiserContentArticle',
  'NewsArticle',
  'AnalysisNewsArticle',
  'AskPublicNewsArticle',
  'BackgroundNewsArticle',
  'OpinionNewsArticle',
  'ReportageNewsArticle',
  'ReviewNewsArticle',
  'Report',
  'SatiricalArticle',
  'ScholarlyArticle',
  'MedicalScholarlyArticle',
  'SocialMediaPosting',
  'BlogPosting',
  'LiveBlogPosting',
  'DiscussionForumPosting',
  'TechArticle',
  'APIReference',
]);

const types = (node: Json): string[] => {
  const t = node['@type'];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
};

/** Whether a JSON-LD node is of an Article type. */
export const isArticleNode = (node: Json | undefined): boolean =>
  node !== undefined && types(node).some((t) => ARTICLE_TYPES.has(t));

/** The JSON-LD node of the article (an Article type). */
export const articleNode = (content: PageContent): Json | undefined => ldNodes(content).find(isArticleNode);

/** The JSON-LD node of the page's subject when it is no article (a product, an event, a recipe). */
const subjectNode = (content: PageContent): Json | undefined =>
  ldNodes(content).find((n) => typeOf(n) !== '' && !IGNORED_TYPES.test(typeOf(n)));

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', apos: "'", lt: '<', gt: '>', nbsp: ' ' };

/** Entities a page escaped twice in its metadata ("&amp;quot;" shows as "&quot;"), decoded; whitespace collapsed. */
export function cleanText(value: string): string {
  const decoded = value.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,5});/gi, (entity, body: string) => {
    if (body[0] !== '#') return ENTITIES[body.toLowerCase()] ?? entity;
    const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
  return decoded.replace(/\s+/g, ' ').trim();
}

/** Meta tags under one spelling each: "DC.title" and "dc:title" are one key (the later tag wins). */
export function metaValues(content: PageContent): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(content.metadata.meta)) {
    const text = cleanText(value);
    if (text) out.set(key.replace(/\s+/g, '').replace(/\./g, ':'), text);
  }
  return out;
}

function first(meta: Map<string, string>, keys: string[]): string | null {
  for (const key of keys) {
    const value = meta.get(key);
    if (value) return value;
  }
  return null;
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** How much of `b`'s words `a` already has, by characters (1 = all of them). */
function similarity(a: string, b: string): number {
  const known = new Set(wordsOf(a));
  const other = wordsOf(b);
  const all = other.join(' ').length;
  if (all === 0) return 0;
  return 1 - other.filter((w) => !known.has(w)).join(' ').length / all;
}

function ldTitle(node: Json, documentTitle: string): string | null {
  const name = typeof node.name === 'string' ? cleanText(node.name) : '';
  const headline = typeof node.headline === 'string' ? cleanText(node.headline) : '';
  if (name && headline && name !== headline) {
    // Both given and different: the one that matches the page's <title> is the article's.
    const nameMatches = similarity(name, documentTitle) > 0.75;
    const headlineMatches = similarity(headline, documentTitle) > 0.75;
    return headlineMatches && !nameMatches ? headline : name;
  }
  return name || headline || null;
}

function ldAuthor(value: unknown): string | null {
  if (Array.isArray(value)) {
    const names = value.map(ldAuthor).filter((n): n is string => !!n);
    return names.length > 0 ? names.join(', ') : null;
  }
  if (value && typeof value === 'object') {
    const name = (value as Json).name;
    return typeof name === 'string' && name.trim() ? cleanText(name) : null;
  }
  return typeof value === 'string' && value.trim() ? cleanText(value) : null;
}

const isUrl = (text: string) => /^https?:\/\//i.test(text) || text.startsWith('//');

/** A byline as shown, without a leading "By". */
export function cleanByline(text: string): string | null {
  const clean = cleanText(text).replace(/^by\s*:?\s+/i, '');
  return clean && !isUrl(clean) ? clean : null;
}

const SEPARATORS = new Set(['|', '-', '–', '—', '\\', '/', '>', '»']);
const HIERARCHICAL = new Set(['\\', '/', '>', '»']);
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Positions of " X " separators in a title (X one of | - – — \ / > »). */
function separators(title: string): number[] {
  const at: number[] = [];
  for (let i = 1; i + 1 < title.length; i++) {
    if (title[i - 1] === ' ' && title[i + 1] === ' ' && SEPARATORS.has(title[i] ?? '')) at.push(i - 1);
  }
  return at;
}

/**
 * The article title from the document `<title>`: the site name after a separator is cut ("Story |
 * Site" → "Story"), unless that leaves too little; "Site: Story" keeps the story; a title too short or
 * too long gives way to the page's only `<h1>`. A result of four words or fewer keeps the whole title.
 */
export function documentTitle(content: PageContent): string {
  const original = cleanText(content.title);
  let title = original;
  let hierarchical = false;
  const headings = content.blocks.filter((b) => b.kind === 'heading');
  const at = separators(original);
  if (at.length > 0) {
    hierarchical = at.some((i) => HIERARCHICAL.has(original[i + 1] ?? ''));
    title = original.slice(0, at[at.length - 1]);
    if (countWords(title) < 3) {
      const cut = [...original].findIndex((ch) => SEPARATORS.has(ch));
      title = original.slice(cut + 1);
    }
  } else if (original.includes(': ')) {
    if (!headings.some((h) => (h.level ?? 2) <= 2 && h.text === original)) {
      title = original.slice(original.lastIndexOf(':') + 1);
      if (countWords(title) < 3) title = original.slice(original.indexOf(':') + 1);
      else if (countWords(original.slice(0, original.indexOf(':'))) > 5) title = original;
    }
  } else if (original.length > 150 || original.length < 15) {
    const h1s = headings.filter((h) => h.level === 1);
    if (h1s.length === 1 && h1s[0]) title = h1s[0].text;
  }
  title = cleanText(title);
  // A <title> that only shortens the page's one <h1> ("Night trains | Weekly" for "Night trains are
  // coming back"): the heading is the full title.
  const h1s = headings.filter((h) => h.level === 1);
  if (h1s.length === 1 && h1s[0] && at.length > 0) {
    const cut = wordsOf(original.slice(0, at[at.length - 1]));
    const h1 = wordsOf(h1s[0].text);
    const inH1 = new Set(h1);
    if (cut.length > 0 && h1.length > cut.length && cut.every((w) => inH1.has(w))) return cleanText(h1s[0].text);
  }
  const words = countWords(title);
  const withoutSeparators = countWords(original.replace(/[|\-–—\\/>»]+/g, ''));
  if (words <= 4 && (!hierarchical || words !== withoutSeparators - 1)) return original;
  return title;
}

/** "By Ingrid Halvorsen · 14 February 2026" in a short text block: the name. */
function bylineInText(content: PageContent): string | null {
  for (const block of content.blocks) {
    if (block.nav || block.text.length >= 150) continue;
    const m = /^\s*(?:by|written by|author:)\s+([^·|•,\d]{2,80})/i.exec(block.text);
    // A name starts with a capital (or a script without case): "By the way, …" is prose.
    if (m?.[1] && !/^\p{Ll}/u.test(m[1])) return m[1].replace(/\s+(?:on|at)$/i, '').trim() || null;
  }
  return null;
}

function dateIn(content: PageContent): string | null {
  const block = content.blocks.find((b) => b.text.length < 150 && parseDate(b.text));
  return block ? parseDate(block.text) : null;
}

/** The article's metadata, each piece from the first source that has it. */
export function articleMeta(content: PageContent): ArticleMeta {
  const article = articleNode(content);
  const subject = article ?? subjectNode(content);
  const node = subject;
  const meta = metaValues(content);
  // As Readability compares JSON-LD's name and headline: with the article title the <title> gives
  // (the site name cut), so a site suffix does not decide between them.
  const shownTitle = documentTitle(content);
  // An article's own JSON-LD comes first; another subject's (a product) only after the meta tags.
  const title =
    (article && ldTitle(article, shownTitle)) ??
    first(meta, [
      'dc:title',
      'dcterm:title',
      'og:title',
      'weibo:article:title',
      'weibo:webpage:title',
      'title',
      'twitter:title',
      'parsely-title',
    ]) ??
    (subject && ldTitle(subject, shownTitle)) ??
    (shownTitle || null);
  const metaAuthor = first(meta, ['dc:creator', 'dcterm:creator', 'author', 'parsely-author']);
  const articleAuthor = meta.get('article:author');
  const byline =
    (node && ldAuthor(node.author ?? node.creator)) ??
    (metaAuthor && cleanByline(metaAuthor)) ??
    (articleAuthor && !isUrl(articleAuthor) ? cleanByline(articleAuthor) : null) ??
    (content.article?.byline ? cleanByline(content.article.byline) : null) ??
    bylineInText(content);
  const ldDate = node ? ldText(node.datePublished ?? node.startDate ?? node.dateCreated ?? node.uploadDate) : null;
  const date =
    ldDate ??
    first(meta, [
      'article:published_time',
      'parsely-pub-date',
      'dc:date',
      'dcterm:date',
      'date',
      'pubdate',
      'publish-date',
    ]) ??
    dateIn(content);
  const publisher = node?.publisher;
  const site_name =
    (publisher && typeof publisher === 'object' ? ldText((publisher as Json).name) : null) ??
    first(meta, ['og:site_name', 'application-name']);
  const description =
    (node && typeof node.description === 'string' ? cleanText(node.description) : null) ??
    first(meta, [
      'dc:description',
      'dcterm:description',
      'og:description',
      'weibo:article:description',
      'description',
      'twitter:description',
    ]);
  return { title, byline, date, site_name, description: description || null };
}
