/**
 * JSON-LD: the page's subject node, its scalars flattened, and list entries (ItemList elements,
 * repeated Product nodes) matched onto the visible records by URL or name. Pure.
 */
import type { PageContent } from '@tandem/shared';
import { resolveUrl } from '../urls';
import { normalizeName, type Role } from './roles';

export type Json = Record<string, unknown>;

export const IGNORED_TYPES =
  /^(Organization|WebSite|WebPage|BreadcrumbList|SearchAction|ImageObject|Person|SiteNavigationElement|ListItem)$/;

export function typeOf(node: Json): string {
  const t = node['@type'];
  return Array.isArray(t) ? String(t[0] ?? '') : String(t ?? '');
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function ldNodes(content: PageContent): Json[] {
  return content.metadata.json_ld.filter(isObject);
}

/** A JSON-LD value as text: objects name themselves (author → its name), arrays give their first. */
export function ldText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return ldText(value[0]);
  if (isObject(value)) return ldText(value.name ?? value.url ?? value['@id'] ?? value.text ?? value.contentUrl);
  return null;
}

/** A URL made absolute against the page (kept as written when it cannot be resolved). */
export function absolute(url: string | null, base: string): string | null {
  return url ? (resolveUrl(url, base) ?? url) : null;
}

/** Scalar properties of a JSON-LD object, flattened one level ("offers.price" → price). */
export function flattenLd(node: Json, base: string): Record<string, string> {
  const out: Record<string, string> = {};
  const nested: [string, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@')) continue;
    const inner = Array.isArray(value) && isObject(value[0]) ? value[0] : value;
    if (isObject(inner)) {
      // A nested object names itself (location → its name) and lends its scalars (offers.price → price).
      const name = ldText(inner.name);
      if (name) out[key] = name;
      for (const [k, v] of Object.entries(inner)) {
        const t = typeof v === 'object' ? null : ldText(v);
        if (t && !k.startsWith('@') && k !== 'name' && k !== 'url') nested.push([k, t]);
      }
      continue;
    }
    const t = ldText(value);
    if (t) out[key] = key === 'url' || key === 'image' ? (absolute(t, base) ?? t) : t;
  }
  for (const [k, t] of nested) if (out[k] === undefined) out[k] = t;
  return out;
}

export const LD_KEYS: Partial<Record<Role, string[]>> = {
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

/** One entry of a JSON-LD list, flattened, with what identifies it on the page. */
export interface LdEntry {
  url: string | null;
  name: string | null;
  props: Record<string, string>;
}

function entryOf(node: Json, base: string, fallback?: Json): LdEntry {
  const props = flattenLd(node, base);
  const url = props.url ?? absolute(ldText(fallback?.url), base);
  const name = props.name ?? ldText(fallback?.name);
  if (url) props.url = url;
  if (name) props.name = name;
  return { url: url ?? null, name: name ?? null, props };
}

/**
 * The page's JSON-LD lists: ItemList elements (a ListItem's `item`, or the ListItem itself) and
 * nodes of one type that the page repeats (a Product[] block).
 */
export function listEntries(content: PageContent): LdEntry[] {
  const base = content.url;
  const nodes = ldNodes(content);
  const entries: LdEntry[] = [];
  for (const node of nodes) {
    const elements = node.itemListElement;
    if (!Array.isArray(elements)) continue;
    for (const element of elements) {
      if (typeof element === 'string') entries.push({ url: absolute(element, base), name: null, props: {} });
      if (!isObject(element)) continue;
      const item = element.item;
      if (isObject(item)) entries.push(entryOf(item, base, element));
      else if (typeof item === 'string') entries.push(entryOf({ ...element, url: item }, base));
      else entries.push(entryOf(element, base));
    }
  }
  const byType = new Map<string, Json[]>();
  for (const node of nodes) {
    const type = typeOf(node);
    if (!type || IGNORED_TYPES.test(type) || Array.isArray(node.itemListElement)) continue;
    byType.set(type, [...(byType.get(type) ?? []), node]);
  }
  for (const group of byType.values()) if (group.length >= 2) for (const n of group) entries.push(entryOf(n, base));
  return entries;
}

const sameUrl = (a: string, b: string) => a.replace(/[#/]+$/, '') === b.replace(/[#/]+$/, '');

/** The list entry for a record: the one with its URL, else the one with its name. */
export function entryFor(entries: LdEntry[], url: unknown, name: unknown): LdEntry | undefined {
  if (typeof url === 'string' && url) {
    const byUrl = entries.find((e) => e.url && sameUrl(e.url, url));
    if (byUrl) return byUrl;
  }
  if (typeof name !== 'string' || !name) return undefined;
  const n = normalizeName(name);
  return entries.find((e) => e.name && normalizeName(e.name) === n);
}

/** A field's value in a list entry: by role (price → offers.price), else by a property of that name. */
export function entryValue(entry: LdEntry, field: string, role: Role | null): string | null {
  for (const key of (role && LD_KEYS[role]) ?? []) if (entry.props[key]) return entry.props[key] ?? null;
  const n = normalizeName(field);
  const key = Object.keys(entry.props).find((k) => normalizeName(k) === n);
  return key ? (entry.props[key] ?? null) : null;
}
