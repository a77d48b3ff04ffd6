/**
 * One item from a single page (an article, an event, a product page): JSON-LD, OpenGraph and meta
 * tags first, then the visible headline, byline and main text. Pure.
 */
import type { PageContent } from '@tandem/shared';
import { coerce } from '../coerce';
import { type ArticleMeta, articleMeta } from './article-meta';
import { type FieldType, fieldType } from './hints';
import { absolute, flattenLd, IGNORED_TYPES, type Json, LD_KEYS, ldNodes, typeOf } from './jsonld';
import type { Item } from './records';
import { normalizeName, type Role, roleOf } from './roles';

/** The JSON-LD object the page is about: the first one that is not site furniture. */
export function primaryJsonLd(content: PageContent): Json | undefined {
  return ldNodes(content).find((n) => typeOf(n) !== '' && !IGNORED_TYPES.test(typeOf(n)));
}

const META_KEYS: Partial<Record<Role, string[]>> = {
  image: ['og:image', 'twitter:image'],
  url: ['og:url'],
  price: ['product:price:amount', 'og:price:amount'],
  currency: ['product:price:currency', 'og:price:currency'],
};

/** The main text: paragraphs of the article body (else the main region, else all but navigation). */
export function mainText(content: PageContent): string {
  const prose = (b: PageContent['blocks'][number]) => b.kind === 'text' || b.kind === 'quote' || b.kind === 'list';
  const article = content.blocks.filter((b) => prose(b) && b.article && !b.nav);
  const blocks = article.length > 0 ? article : content.blocks.filter((b) => prose(b) && b.main && !b.nav);
  return blocks
    .map((b) => b.text)
    .filter((t) => !/^\s*(?:by|written by)\s/i.test(t) || t.length > 150)
    .join('\n\n');
}

function roleValue(content: PageContent, role: Role, ld: Record<string, string>, meta: ArticleMeta): unknown {
  switch (role) {
    case 'name':
      return meta.title;
    case 'author':
      return meta.byline;
    case 'date':
      return meta.date;
    case 'site_name':
      return meta.site_name;
    case 'description':
      return (
        meta.description ??
        content.blocks.find((b) => b.kind === 'text' && b.main && !b.nav && b.text.length > 40)?.text ??
        null
      );
    default:
      break;
  }
  for (const key of LD_KEYS[role] ?? []) if (ld[key]) return ld[key];
  for (const key of META_KEYS[role] ?? []) if (content.metadata.meta[key]) return content.metadata.meta[key];
  switch (role) {
    case 'url':
      return content.metadata.canonical ?? content.url;
    case 'text':
      return mainText(content) || null;
    case 'image':
      return content.images[0]?.src ?? null;
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
  const meta = articleMeta(content);
  const item: Item = {};
  const chosen = fields ?? ARTICLE_FIELDS;
  for (const field of chosen) {
    const role = field === 'published' ? 'date' : roleOf(field);
    let value: unknown = role ? roleValue(content, role, ld, meta) : null;
    if (!role || value === null) {
      const n = normalizeName(field);
      const key = Object.keys(ld).find((k) => normalizeName(k) === n);
      if (key) value = ld[key];
      else if (value === null && content.metadata.meta[n]) value = content.metadata.meta[n];
    }
    if (role === 'url' && typeof value === 'string') value = absolute(value, content.url);
    item[field] = coerce(value ?? null, types[field] ?? fieldType(field));
  }
  if (!fields && node) {
    for (const [key, value] of Object.entries(ld)) {
      if (Object.values(item).includes(value) || item[key] !== undefined) continue;
      if (['headline', 'name', 'datePublished', 'articleBody', 'description', 'url'].includes(key)) continue;
      item[key] = coerce(value, types[key] ?? fieldType(key));
    }
    if (typeOf(node)) item.type = typeOf(node);
  }
  return item;
}
