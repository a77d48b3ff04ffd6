/**
 * One item from a single page (an article, an event, a product page): JSON-LD, OpenGraph and meta
 * tags first, then the visible headline, byline and main text. Pure.
 */
import type { PageContent } from '@tandem/shared';
import { coerce } from '../coerce';
import type { FieldType } from './hints';
import { absolute, flattenLd, IGNORED_TYPES, type Json, LD_KEYS, ldNodes, typeOf } from './jsonld';
import type { Item } from './records';
import { normalizeName, type Role, roleOf } from './roles';
import { parseDate } from './values';

/** The JSON-LD object the page is about: the first one that is not site furniture. */
export function primaryJsonLd(content: PageContent): Json | undefined {
  return ldNodes(content).find((n) => typeOf(n) !== '' && !IGNORED_TYPES.test(typeOf(n)));
}

const META_KEYS: Partial<Record<Role, string[]>> = {
  name: ['og:title', 'twitter:title', 'title'],
  date: ['article:published_time', 'date', 'pubdate', 'publish-date', 'dc.date', 'og:updated_time'],
  author: ['author', 'article:author', 'twitter:creator', 'dc.creator'],
  description: ['og:description', 'description', 'twitter:description'],
  image: ['og:image', 'twitter:image'],
  url: ['og:url'],
  site_name: ['og:site_name', 'application-name'],
  price: ['product:price:amount', 'og:price:amount'],
  currency: ['product:price:currency', 'og:price:currency'],
};

/** The byline's author: "By Ingrid Halvorsen · 14 February 2026" → "Ingrid Halvorsen". */
function bylineAuthor(content: PageContent): string | null {
  for (const block of content.blocks) {
    const m = /^\s*(?:by|written by|author:)\s+([^·|•,\d]+?)(?:\s*[·|•,]|\s+on\s|\s+\d|$)/i.exec(block.text);
    if (m?.[1] && block.text.length < 150) return m[1].trim();
  }
  return null;
}

function visibleHeadline(content: PageContent): string | null {
  const main = content.blocks.filter((b) => b.kind === 'heading' && !b.nav);
  return (main.find((b) => b.level === 1) ?? main[0])?.text ?? null;
}

/** The main text: paragraphs of the main region (or all non-navigation paragraphs). */
export function mainText(content: PageContent): string {
  const blocks = content.blocks.filter(
    (b) => (b.kind === 'text' || b.kind === 'quote' || b.kind === 'list') && b.main && !b.nav,
  );
  return blocks
    .map((b) => b.text)
    .filter((t) => !/^\s*(?:by|written by)\s/i.test(t) || t.length > 150)
    .join('\n\n');
}

function roleValue(content: PageContent, role: Role, ld: Record<string, string>): unknown {
  for (const key of LD_KEYS[role] ?? []) if (ld[key]) return ld[key];
  for (const key of META_KEYS[role] ?? []) if (content.metadata.meta[key]) return content.metadata.meta[key];
  switch (role) {
    case 'name':
      return visibleHeadline(content) ?? (content.title || null);
    case 'author':
      return bylineAuthor(content);
    case 'date': {
      const inByline = content.blocks.find((b) => b.text.length < 150 && parseDate(b.text));
      return inByline ? parseDate(inByline.text) : null;
    }
    case 'url':
      return content.metadata.canonical ?? content.url;
    case 'text':
      return mainText(content) || null;
    case 'description': {
      const first = content.blocks.find((b) => b.kind === 'text' && b.main && !b.nav && b.text.length > 40);
      return first?.text ?? null;
    }
    case 'image':
      return content.images[0]?.src ?? null;
    case 'site_name':
      return null;
    default:
      return null;
  }
}

export const ARTICLE_FIELDS = ['title', 'author', 'published', 'site_name', 'description', 'url', 'text'];

export function isArticleLike(content: PageContent): boolean {
  const ld = primaryJsonLd(content);
  // Several nodes of the subject's type (a Product[] block) describe a list, not one subject.
  const repeated = ld !== undefined && ldNodes(content).filter((n) => typeOf(n) === typeOf(ld)).length > 1;
  if (
    ld &&
    !repeated &&
    /Article|Posting|Report|Review|Recipe|Event|Product|Movie|Book|Course|JobPosting/.test(typeOf(ld))
  )
    return true;
  if (/article/i.test(content.metadata.meta['og:type'] ?? '')) return true;
  return content.blocks.filter((b) => b.kind === 'text' && b.main && !b.nav && b.text.length > 60).length >= 2;
}

/** The one item of a single-subject page. Without `fields`: article fields, plus JSON-LD's own scalars. */
export function articleItem(
  content: PageContent,
  fields: string[] | undefined,
  types: Record<string, FieldType>,
): Item {
  const node = primaryJsonLd(content);
  const ld = node ? flattenLd(node, content.url) : {};
  const item: Item = {};
  const chosen = fields ?? ARTICLE_FIELDS;
  for (const field of chosen) {
    const role = field === 'published' ? 'date' : roleOf(field);
    let value: unknown = role ? roleValue(content, role, ld) : null;
    if (!role || value === null) {
      const n = normalizeName(field);
      const key = Object.keys(ld).find((k) => normalizeName(k) === n);
      if (key) value = ld[key];
      else if (value === null && content.metadata.meta[n]) value = content.metadata.meta[n];
    }
    if (role === 'url' && typeof value === 'string') value = absolute(value, content.url);
    item[field] = coerce(value ?? null, types[field] ?? (role === 'price' || role === 'rating' ? 'number' : undefined));
  }
  if (!fields && node) {
    for (const [key, value] of Object.entries(ld)) {
      if (Object.values(item).includes(value) || item[key] !== undefined) continue;
      if (['headline', 'name', 'datePublished', 'articleBody', 'description', 'url'].includes(key)) continue;
      item[key] = /^(price|lowPrice|highPrice|ratingValue)$/.test(key) ? coerce(value, 'number') : value;
    }
    if (typeOf(node)) item.type = typeOf(node);
  }
  return item;
}
