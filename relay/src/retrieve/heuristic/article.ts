/**
 * One item from a single page (an article, an event, a product page): JSON-LD, OpenGraph and meta
 * tags first, then the visible headline, byline and main text. Pure.
 */
import type { PageContent } from '@tandem/shared';
import type { FieldType } from './hints';
import { coerce, type Item } from './records';
import { normalizeName, type Role, roleOf } from './roles';
import { parseDate } from './values';

type Json = Record<string, unknown>;

const IGNORED_TYPES =
  /^(Organization|WebSite|WebPage|BreadcrumbList|SearchAction|ImageObject|Person|SiteNavigationElement|ListItem)$/;

function typeOf(node: Json): string {
  const t = node['@type'];
  return Array.isArray(t) ? String(t[0] ?? '') : String(t ?? '');
}

/** The JSON-LD object the page is about: the first one that is not site furniture. */
export function primaryJsonLd(content: PageContent): Json | undefined {
  const nodes = content.metadata.json_ld.filter((n): n is Json => typeof n === 'object' && n !== null);
  return nodes.find((n) => typeOf(n) !== '' && !IGNORED_TYPES.test(typeOf(n)));
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === 'object') {
    const o = value as Json;
    return text(o.name ?? o.url ?? o['@id'] ?? o.text ?? o.contentUrl);
  }
  return null;
}

function absolute(url: string | null, base: string): string | null {
  if (!url) return null;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/** Scalar properties of a JSON-LD object, flattened one level ("offers.price" → price). */
function flattenLd(node: Json, base: string): Record<string, string> {
  const out: Record<string, string> = {};
  const nested: [string, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@')) continue;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = value as Json;
      // A nested object names itself (location → its name) and lends its scalars (offers.price → price).
      const name = text(inner.name);
      if (name) out[key] = name;
      for (const [k, v] of Object.entries(inner)) {
        const t = typeof v === 'object' ? null : text(v);
        if (t && !k.startsWith('@') && k !== 'name' && k !== 'url') nested.push([k, t]);
      }
      continue;
    }
    const t = text(value);
    if (t) out[key] = key === 'url' || key === 'image' ? (absolute(t, base) ?? t) : t;
  }
  for (const [k, t] of nested) if (out[k] === undefined) out[k] = t;
  return out;
}

const LD_KEYS: Partial<Record<Role, string[]>> = {
  name: ['headline', 'name'],
  date: ['datePublished', 'startDate', 'dateCreated', 'uploadDate', 'dateModified'],
  author: ['author', 'creator'],
  description: ['description', 'abstract'],
  image: ['image', 'thumbnailUrl'],
  url: ['url', 'mainEntityOfPage'],
  price: ['price', 'lowPrice'],
  currency: ['priceCurrency'],
  rating: ['ratingValue'],
  site_name: ['publisher'],
  text: ['articleBody', 'text'],
};

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
  if (ld && /Article|Posting|Report|Review|Recipe|Event|Product|Movie|Book|Course|JobPosting/.test(typeOf(ld)))
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
