/** Page metadata: meta tags (OpenGraph, Twitter, description, author), JSON-LD and microdata. */
import type { MicrodataItem, PageMetadata } from '../content-schema';
import { closest, docQueryAll, elQueryAll, getAttr, hasAttr } from '../dom-intrinsics';
import { append, strEndsWith, strLastIndexOf, strLower, strSlice, strStartsWith, strTrim } from '../intrinsics';
import { collapseWhitespace } from '../text';
import { absoluteUrl, jsonParse, type Scope } from './dom';

const isArray = Array.isArray;
const MAX_ITEMS = 500;

function flatten(value: unknown, out: unknown[]): void {
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) flatten(value[i], out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  append(out, value);
  const graph = (value as Record<string, unknown>)['@graph'];
  if (graph !== undefined) flatten(graph, out);
}

function propertyValue(el: Element, scope: Scope): string {
  const tag = strLower(el.tagName);
  if (hasAttr(el, 'content')) return getAttr(el, 'content') ?? '';
  if (tag === 'time' && hasAttr(el, 'datetime')) return getAttr(el, 'datetime') ?? '';
  if (tag === 'a' || tag === 'link' || tag === 'area') return absoluteUrl(getAttr(el, 'href'), scope.base);
  if (tag === 'img' || tag === 'source' || tag === 'video' || tag === 'audio')
    return absoluteUrl(getAttr(el, 'src'), scope.base);
  if (tag === 'data' || tag === 'meter') return getAttr(el, 'value') ?? '';
  return collapseWhitespace(el.textContent ?? '');
}

function microdata(scope: Scope): MicrodataItem[] {
  const items: MicrodataItem[] = [];
  const scopes = docQueryAll(scope.doc, '[itemscope]');
  for (let i = 0; i < scopes.length && items.length < MAX_ITEMS; i++) {
    const item = scopes[i] as Element;
    const properties: Record<string, string[]> = {};
    const props = elQueryAll(item, '[itemprop]');
    for (let p = 0; p < props.length; p++) {
      const prop = props[p] as Element;
      const owner = prop.parentElement ? closest(prop.parentElement, '[itemscope]') : null;
      if (owner !== item) continue;
      const name = getAttr(prop, 'itemprop') ?? '';
      if (name === '') continue;
      const list = properties[name] ?? [];
      append(
        list,
        hasAttr(prop, 'itemscope') ? collapseWhitespace(prop.textContent ?? '') : propertyValue(prop, scope),
      );
      properties[name] = list;
    }
    append(items, { type: getAttr(item, 'itemtype') ?? '', properties });
  }
  return items;
}

/**
 * The keys a meta tag gives: its property (each one, when it lists several separated by spaces, and
 * for "og:article:author" also "article:author"), else its name, else its itemprop; lower case.
 */
function metaKeys(el: Element): string[] {
  const property = getAttr(el, 'property');
  const keys: string[] = [];
  if (property) {
    const parts = splitSpaces(strLower(property));
    for (let i = 0; i < parts.length; i++) {
      const key = parts[i] as string;
      append(keys, key);
      const last = strLastIndexOf(key, ':');
      const before = last > 0 ? strLastIndexOf(key, ':', last - 1) : -1;
      if (before >= 0) append(keys, strSlice(key, before + 1));
    }
    return keys;
  }
  const name = getAttr(el, 'name') ?? getAttr(el, 'itemprop');
  if (name) append(keys, strLower(collapseWhitespace(name)));
  return keys;
}

function splitSpaces(text: string): string[] {
  const out: string[] = [];
  let word = '';
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text[i] : ' ';
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (word) append(out, word);
      word = '';
    } else word += ch;
  }
  return out;
}

/** JSON-LD text without the CDATA or comment wrapper some pages put around it. */
function unwrapJson(text: string): string {
  let s = strTrim(text);
  if (strStartsWith(s, '<![CDATA[')) s = strSlice(s, 9);
  else if (strStartsWith(s, '<!--')) s = strSlice(s, 4);
  s = strTrim(s);
  const end = s.length;
  if (strEndsWith(s, ']]>')) s = strSlice(s, 0, end - 3);
  else if (strEndsWith(s, '-->')) s = strSlice(s, 0, end - 3);
  return s;
}

export function readMetadata(scope: Scope): PageMetadata {
  const meta: Record<string, string> = {};
  const metas = docQueryAll(scope.doc, 'meta[content]');
  for (let i = 0; i < metas.length; i++) {
    const el = metas[i] as Element;
    // An itemprop inside an itemscope belongs to that microdata item, not to the page.
    if (
      hasAttr(el, 'itemprop') &&
      !hasAttr(el, 'property') &&
      !hasAttr(el, 'name') &&
      closest(el, '[itemscope]') !== null
    )
      continue;
    const keys = metaKeys(el);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      if (meta[key] === undefined) meta[key] = collapseWhitespace(getAttr(el, 'content') ?? '');
    }
  }
  const jsonLd: unknown[] = [];
  const scripts = docQueryAll(scope.doc, 'script[type="application/ld+json"]');
  for (let i = 0; i < scripts.length; i++) {
    try {
      flatten(jsonParse(unwrapJson((scripts[i] as Element).textContent ?? '')), jsonLd);
    } catch {
      // A broken JSON-LD block is the page's problem; the rest still counts.
    }
  }
  const result: PageMetadata = { meta, json_ld: jsonLd, microdata: microdata(scope) };
  const canonical = docQueryAll(scope.doc, 'link[rel="canonical"][href]');
  if (canonical.length > 0) result.canonical = absoluteUrl(getAttr(canonical[0] as Element, 'href'), scope.base);
  return result;
}
