/** Repeated records → items, by recognising each field among the record's parts. Pure. */
import type { ContentRecord, RecordGroup, RecordPart } from '@tandem/shared';
import { coerce } from '../coerce';
import type { FieldType } from './hints';
import { entryFor, entryValue, type LdEntry } from './jsonld';
import { normalizeName, ROLE_HINTS, type Role, roleOf, tokensOf } from './roles';
import { currencyOf, looksLikeDate, looksLikePrice, parseDate, parsePrice, parseRating } from './values';

export type Item = Record<string, unknown>;

const OLD_PRICE = /\b(old|was|strike|regular|list|compare|before|original)\b/;

/**
 * How well a part's hints name a role: 3 when one of its own class words ends in the role word
 * (`opblock-summary-description`), 2 when its own hints match elsewhere, 1 when only an ancestor's
 * do. Ancestors' classes reach every part of a record, so without the ranking a card classed
 * `summary` would make its first part, whatever it is, the description.
 */
function hintScore(part: RecordPart, pattern: RegExp): number {
  if (part.itemprop !== undefined && pattern.test(part.itemprop.toLowerCase())) return 3;
  const words = ownHintWords(part);
  if (words.some((w) => pattern.test(w.split(/[-_]/).pop() ?? ''))) return 3;
  if (words.some((w) => pattern.test(w))) return 2;
  return pattern.test(part.hint) ? 1 : 0;
}

/** The part's own hint words (its classes, id, data-* names), before the ` | ` its ancestors' follow. */
function ownHintWords(part: RecordPart): string[] {
  return (part.hint.split('|')[0] ?? '').split(/\s+/).filter(Boolean);
}

/** The part whose hints best name a role (earliest on ties), among those `accept` allows. */
function byHint(
  parts: RecordPart[],
  pattern: RegExp,
  accept: (p: RecordPart) => boolean = () => true,
): RecordPart | undefined {
  let best: RecordPart | undefined;
  let bestScore = 0;
  for (const part of parts) {
    const score = hintScore(part, pattern);
    if (score > bestScore && accept(part)) {
      best = part;
      bestScore = score;
    }
  }
  return best;
}

function nameOf(record: ContentRecord): RecordPart | undefined {
  const { parts } = record;
  return (
    parts.find((p) => p.itemprop === 'name' && p.text) ??
    parts.find((p) => p.heading && p.kind === 'link' && p.text) ??
    parts.find((p) => p.heading && p.text) ??
    byHint(parts, ROLE_HINTS.name, (p) => p.text !== '' && p.kind !== 'image') ??
    parts.find((p) => p.kind === 'link' && p.text.length >= 3) ??
    parts.find((p) => p.kind === 'text' && p.text.length >= 2 && !looksLikePrice(p.text))
  );
}

function pricePart(record: ContentRecord): RecordPart | undefined {
  const candidates = record.parts.filter(
    (p) =>
      p.itemprop === 'price' ||
      ((ROLE_HINTS.price.test(p.hint) || looksLikePrice(p.text)) && p.kind !== 'link' && /\d/.test(p.text)),
  );
  const current = candidates.filter((p) => !OLD_PRICE.test(p.hint) && p.tag !== 's' && p.tag !== 'del');
  return current.find((p) => p.itemprop === 'price') ?? current[0] ?? candidates[0];
}

function priceOf(record: ContentRecord): { amount: number; currency: string | null; raw: string } | null {
  const part = pricePart(record);
  if (!part) return null;
  const raw = part.text || part.datetime || '';
  const parsed = parsePrice(part.datetime && /^\d/.test(part.datetime) ? part.datetime : raw) ?? parsePrice(raw);
  if (!parsed) return null;
  const currencyPart = record.parts.find((p) => p.itemprop?.toLowerCase() === 'pricecurrency');
  const currency = currencyPart?.datetime || currencyPart?.text || parsed.currency || currencyOf(raw);
  return { amount: parsed.amount, currency: currency ?? null, raw: raw || String(parsed.amount) };
}

function dateOf(record: ContentRecord, type: FieldType | undefined): unknown {
  const part =
    record.parts.find((p) => p.kind === 'time') ??
    byHint(record.parts, ROLE_HINTS.date) ??
    record.parts.find((p) => looksLikeDate(p.text));
  if (!part) {
    const inText = parseDate(record.text);
    return inText;
  }
  const raw = part.datetime || part.text;
  if (type === 'string') return part.text || raw;
  return parseDate(raw) ?? parseDate(part.text) ?? (raw || null);
}

function ratingOf(record: ContentRecord): number | null {
  const part = byHint(record.parts, ROLE_HINTS.rating);
  if (!part) return null;
  return parseRating(part.datetime ?? '') ?? parseRating(part.label ?? '') ?? parseRating(part.text);
}

function descriptionOf(record: ContentRecord, used: Set<string>): string | null {
  const hinted = byHint(record.parts, ROLE_HINTS.description, (p) => p.text !== '');
  if (hinted) return hinted.text;
  const long = record.parts
    .filter((p) => p.kind === 'text' && !p.heading && p.text.length >= 25 && !used.has(p.text))
    .sort((a, b) => b.text.length - a.text.length)[0];
  return long?.text ?? null;
}

function urlOf(record: ContentRecord, name: RecordPart | undefined): string | null {
  if (name?.kind === 'link' && name.href) return name.href;
  const links = record.parts.filter((p) => p.kind === 'link' && p.href);
  return (links.find((p) => name && p.text === name.text) ?? links[0])?.href ?? null;
}

/** A requested field that is no standard role: itemprop, data-*, class hint, or "Label: value" text. */
function namedOf(record: ContentRecord, field: string): unknown {
  const tokens = tokensOf(field);
  const n = normalizeName(field);
  const prop = record.parts.find((p) => p.itemprop && normalizeName(p.itemprop) === n);
  if (prop) return prop.datetime || prop.text || prop.href || prop.src || null;
  for (const [key, value] of Object.entries(record.data)) if (normalizeName(key) === n && value) return value;
  const hinted = record.parts.find((p) => {
    const words = ownHintWords(p);
    return tokens.some((t) =>
      words.some((w) => w === t || w.endsWith(`-${t}`) || w.endsWith(`_${t}`) || w.startsWith(`${t}-`)),
    );
  });
  if (hinted) return hinted.text || hinted.datetime || hinted.href || hinted.src || hinted.label || null;
  const label = new RegExp(
    `\\b${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:\\s*([^|•·\\n]+?)(?=\\s{2,}|\\s[A-Z][a-z]+:|$)`,
    'i',
  ).exec(record.text);
  return label?.[1]?.trim() ?? null;
}

/** One record's value for a field. */
export function recordValue(
  record: ContentRecord,
  field: string,
  role: Role | null,
  type: FieldType | undefined,
): unknown {
  const name = nameOf(record);
  switch (role) {
    case 'name':
      return name?.text ?? null;
    case 'url':
      return urlOf(record, name);
    case 'image':
      return record.parts.find((p) => p.kind === 'image' && p.src)?.src ?? null;
    case 'price': {
      const price = priceOf(record);
      if (!price) return null;
      return type === 'string' ? price.raw : price.amount;
    }
    case 'currency':
      return priceOf(record)?.currency ?? null;
    case 'date':
      return dateOf(record, type);
    case 'rating':
      return ratingOf(record);
    case 'author':
      return byHint(record.parts, ROLE_HINTS.author)?.text.replace(/^by\s+/i, '') ?? null;
    case 'description':
      return descriptionOf(record, new Set([name?.text ?? '']));
    case 'text':
      return record.text;
    default:
      return namedOf(record, field);
  }
}

/** Columns chosen without `fields`: the standard roles at least half of the records have. */
export function autoColumns(group: RecordGroup): string[] {
  const sample = group.records.slice(0, 50);
  const columns: string[] = [];
  for (const role of [
    'name',
    'url',
    'image',
    'price',
    'currency',
    'date',
    'rating',
    'author',
    'description',
  ] as Role[]) {
    const filled = sample.filter((r) => {
      const v = recordValue(r, role, role, undefined);
      return v !== null && v !== undefined && v !== '';
    }).length;
    if (filled * 2 >= sample.length && filled > 0) columns.push(role);
  }
  return columns.length > 0 ? columns : ['text'];
}

/** Auto columns plus the roles (price, currency, sku...) the JSON-LD entries give for at least half the records. */
export function columnsWithLd(group: RecordGroup, entries: LdEntry[]): string[] {
  const columns = autoColumns(group);
  if (entries.length === 0) return columns;
  const sample = group.records.slice(0, 50);
  const matched = sample
    .map((r) => {
      const name = nameOf(r);
      return entryFor(entries, urlOf(r, name), name?.text);
    })
    .filter((e): e is LdEntry => e !== undefined);
  if (matched.length * 2 < sample.length) return columns;
  for (const [column, role] of [
    ['price', 'price'],
    ['currency', 'currency'],
    ['sku', null],
  ] as [string, Role | null][]) {
    const have = matched.filter((e) => entryValue(e, column, role) !== null).length;
    if (!columns.includes(column) && have * 2 >= matched.length) columns.push(column);
  }
  return columns;
}

/**
 * The group's records as items. Fields the visible record lacks come from the page's JSON-LD list
 * entry for it (matched by URL or name): list pages often keep prices and SKUs only there.
 */
export function recordItems(
  group: RecordGroup,
  fields: string[],
  types: Record<string, FieldType>,
  entries: LdEntry[] = [],
): Item[] {
  return group.records.map((record) => {
    const item: Item = {};
    const missing: string[] = [];
    for (const field of fields) {
      const role = roleOf(field);
      item[field] = coerce(recordValue(record, field, role, types[field]), types[field]);
      if (item[field] === null || item[field] === '') missing.push(field);
    }
    if (missing.length === 0 || entries.length === 0) return item;
    const name = nameOf(record);
    const entry = entryFor(entries, urlOf(record, name), name?.text);
    if (!entry) return item;
    for (const field of missing) {
      const role = roleOf(field);
      const value = entryValue(entry, field, role);
      // JSON-LD numbers are strings ("89.99"); a price or rating without a type hint is still a number.
      const type = types[field] ?? (role === 'price' || role === 'rating' ? 'number' : undefined);
      if (value !== null) item[field] = coerce(value, type);
    }
    return item;
  });
}
