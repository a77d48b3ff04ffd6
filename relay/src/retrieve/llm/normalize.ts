/**
 * A model's item made to match the request: every requested field present, values coerced to the
 * types the cmd asks for, and relative URLs made absolute only where a URL is meant. Pure.
 */
import type { PageContent } from '@tandem/shared';
import { coerce } from '../coerce';
import type { FieldType } from '../heuristic/hints';
import { roleOf } from '../heuristic/roles';
import { resolveUrl } from '../urls';

type Item = Record<string, unknown>;

export interface NormalizeContext {
  /** The page URL relative references resolve against. */
  base: string;
  types: Record<string, FieldType>;
  /** Absolute URLs the page links to or shows; a relative value in any field that resolves to one is a URL. */
  known: ReadonlySet<string>;
}

/** Every absolute link and image URL the content model holds. */
export function pageUrls(content: PageContent): Set<string> {
  const urls = new Set<string>();
  for (const link of content.links) urls.add(link.href);
  for (const image of content.images) urls.add(image.src);
  for (const table of content.tables)
    for (const row of table.rows)
      for (const cell of row) {
        if (cell.href) urls.add(cell.href);
        if (cell.src) urls.add(cell.src);
      }
  for (const group of content.records)
    for (const record of group.records)
      for (const part of record.parts) {
        if (part.href) urls.add(part.href);
        if (part.src) urls.add(part.src);
      }
  return urls;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;
/** Written like a relative reference: "/x", "./x", "../x", "?page=2", "#top", "item/x", "page.html". */
const RELATIVE = /^(?:\/|\.\.?\/|\?|#|[\w.~%+-]+(?:\/|\.html?(?:$|[?#])|\?))/;
const NO_SPACE = /^[^\s<>"'`]+$/;
/** Placeholders a model writes for "no value", which only look like paths. */
const PLACEHOLDER = /^(n\/?a|none|null|-+|tbd|unknown)$/i;

/** A value of a url/image field: relative references resolved; text that is no reference stays as it is. */
function asUrl(value: string, base: string): string {
  const v = value.trim();
  if (ABSOLUTE.test(v) || !NO_SPACE.test(v) || PLACEHOLDER.test(v)) return value;
  // "www.shop.test/x" is a host without its scheme, not a path under the current page.
  if (/^www\.[\w-]+\.[a-z]/i.test(v)) return resolveUrl(`https://${v}`, base) ?? value;
  if (!RELATIVE.test(v)) return value;
  return resolveUrl(v, base) ?? value;
}

/** A value of any other field: made absolute only when it resolves to a URL the page really has. */
function maybeUrl(value: string, context: NormalizeContext): string {
  const v = value.trim();
  if (ABSOLUTE.test(v) || !NO_SPACE.test(v) || !RELATIVE.test(v)) return value;
  const resolved = resolveUrl(v, context.base);
  return resolved !== undefined && context.known.has(resolved) ? resolved : value;
}

function normalizeValue(value: unknown, urlField: boolean, context: NormalizeContext): unknown {
  if (typeof value === 'string') return urlField ? asUrl(value, context.base) : maybeUrl(value, context);
  if (Array.isArray(value)) return value.map((v) => normalizeValue(v, urlField, context));
  return value;
}

/** Every requested field present (null when missing), nothing else; URLs absolute; types as asked. */
export function normalizeItem(item: Item, fields: string[] | undefined, context: NormalizeContext): Item {
  const keys = fields && fields.length > 0 ? fields : Object.keys(item);
  const out: Item = {};
  for (const key of keys) {
    const type = context.types[key];
    const role = roleOf(key);
    const urlField = type === 'url' || (type === undefined && (role === 'url' || role === 'image'));
    const value = normalizeValue(item[key] ?? null, urlField, context);
    out[key] = type === 'url' ? value : coerce(value, type);
  }
  return out;
}
