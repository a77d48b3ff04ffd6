/**
 * Repeated records → items, by recognising each field among the record's parts: by itemprop, by
 * the names in class, id and data-* hints, by a label the page puts before a value ("Venue:"), by
 * where a part sits (a `<dt>` is a term, a `<dd>` its description) and by the shape of the value
 * (a price, a date). Pure; linear in the record's size.
 */
import type { ContentRecord, RecordGroup, RecordPart } from '@tandem/shared';
import { coerce } from '../coerce';
import { type FieldType, fieldType } from './hints';
import { entryFor, entryValue, type LdEntry } from './jsonld';
import { hintNames, normalizeName, ROLE_WORDS, type Role, roleOf, tokensOf, wordNames } from './roles';
import { currencyOf, looksLikeDate, looksLikePrice, parseDate, parseNumber, parsePrice, parseRating } from './values';

export type Item = Record<string, unknown>;

const OLD_PRICE = ['old', 'was', 'strike', 'regular', 'list', 'compare', 'before', 'original'];

/** The part's own hint words (its classes, id, data-* names), before the ` | ` its ancestors' follow. */
function ownHintWords(part: RecordPart): string[] {
  return (part.hint.split('|')[0] ?? '').split(/\s+/).filter(Boolean);
}

/**
 * How well a part's hints name a role: 3 for its itemprop or one of its own class words, 2 when the
 * word only ends in the role word, 1 when only an ancestor's do. Ancestors' classes reach every part
 * of a record, so without the ranking a card classed `summary` would make its first part, whatever
 * it is, the description.
 */
function hintScore(part: RecordPart, words: readonly string[]): number {
  if (part.itemprop !== undefined && wordNames(part.itemprop.toLowerCase(), words)) return 3;
  const own = ownHintWords(part);
  if (own.some((w) => words.includes(w) || words.includes(w.split(/[-_]/).pop() ?? ''))) return 3;
  if (own.some((w) => wordNames(w, words))) return 2;
  return hintNames(part.hint, words) ? 1 : 0;
}

/** The part whose hints best name a role (earliest on ties), among those `accept` allows. */
function byHint(
  parts: RecordPart[],
  words: readonly string[],
  accept: (p: RecordPart) => boolean = () => true,
): RecordPart | undefined {
  let best: RecordPart | undefined;
  let bestScore = 0;
  for (const part of parts) {
    const score = hintScore(part, words);
    if (score > bestScore && accept(part)) {
      best = part;
      bestScore = score;
    }
  }
  return best;
}

/** A name has a letter: "1." is a rank, "$12" a price. */
const named = (p: RecordPart) => /\p{L}/u.test(p.text);

export function nameOf(record: ContentRecord): RecordPart | undefined {
  const parts = record.parts.filter(named);
  return (
    parts.find((p) => p.itemprop === 'name' && p.text) ??
    parts.find((p) => p.heading && p.kind === 'link' && p.text) ??
    parts.find((p) => p.heading && p.text) ??
    parts.find((p) => p.within === 'dt' && p.text) ??
    byHint(parts, ROLE_WORDS.name, (p) => p.text !== '' && p.kind !== 'image') ??
    parts.find((p) => p.kind === 'link' && p.text.length >= 3) ??
    parts.find((p) => p.kind === 'text' && p.text.length >= 2 && !looksLikePrice(p.text) && !p.text.endsWith(':'))
  );
}

function pricePart(record: ContentRecord): RecordPart | undefined {
  const candidates = record.parts.filter(
    (p) =>
      p.itemprop === 'price' ||
      ((hintNames(p.hint, ROLE_WORDS.price) || looksLikePrice(p.text)) && p.kind !== 'link' && /\d/.test(p.text)),
  );
  const current = candidates.filter((p) => !hintNames(p.hint, OLD_PRICE) && p.tag !== 's' && p.tag !== 'del');
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

/** A date part: a <time>, a part named for dates, or one whose text or label is a date. */
function dateOf(record: ContentRecord, type: FieldType): unknown {
  const part =
    record.parts.find((p) => p.kind === 'time') ??
    byHint(record.parts, ROLE_WORDS.date) ??
    record.parts.find((p) => looksLikeDate(p.text)) ??
    record.parts.find((p) => p.label !== undefined && looksLikeDate(p.label));
  if (!part) return parseDate(record.text.slice(0, 500));
  if (type === 'string') return part.text || part.datetime || part.label || null;
  const candidates = [part.datetime, part.text, part.label];
  for (const c of candidates) {
    const date = c ? parseDate(c) : null;
    if (date) return date;
  }
  return part.text || part.datetime || null;
}

function ratingOf(record: ContentRecord): number | null {
  const part = byHint(record.parts, ROLE_WORDS.rating);
  if (!part) return null;
  return (
    parseRating(part.datetime ?? '') ??
    parseRating(part.label ?? '') ??
    parseRating(part.text) ??
    parseNumber(part.datetime || part.text)
  );
}

function descriptionOf(record: ContentRecord, used: Set<string>): string | null {
  const hinted = byHint(record.parts, ROLE_WORDS.description, (p) => p.text !== '');
  if (hinted) return hinted.text;
  const term = record.parts.find((p) => p.within === 'dd' && p.text);
  if (term) return term.text;
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

const partValue = (p: RecordPart): string | null => p.text || p.datetime || p.href || p.src || p.label || null;

/** Whether `text` holds `word` as a whole word (case already folded). */
function hasWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? ' ' : (text[at - 1] ?? ' ');
    const after = text[at + word.length] ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

/** "Venue: Fixture Hall" inside a record's text: the value after the label, up to the next separator. */
function labelledInText(full: string, name: string): string | null {
  // Labels sit near values; a bounded window keeps a huge record text from costing a scan per label.
  const text = full.slice(0, 2000);
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + 1)) {
    let i = at + name.length;
    while (lower[i] === ' ') i++;
    if (lower[i] !== ':') continue;
    i++;
    while (lower[i] === ' ') i++;
    let end = i;
    while (end < text.length && !'|•·—–;\n'.includes(text[end] ?? '') && !(text[end] === ' ' && text[end + 1] === ' '))
      end++;
    const value = text.slice(i, end).trim();
    if (value) return value;
  }
  return null;
}

/**
 * A requested field that is no standard role: its itemprop, data-* key, class hint or label; else a
 * short part whose text names it ("120 comments" for comments); else "Label: value" in the text.
 */
function namedOf(record: ContentRecord, field: string): unknown {
  const tokens = tokensOf(field);
  const n = normalizeName(field);
  const prop = record.parts.find((p) => p.itemprop && normalizeName(p.itemprop) === n);
  if (prop) return prop.datetime || prop.text || prop.href || prop.src || null;
  for (const [key, value] of Object.entries(record.data)) if (normalizeName(key) === n && value) return value;
  const hinted = record.parts.find((p) => ownHintWords(p).some((w) => wordNames(w, tokens)));
  if (hinted) return partValue(hinted);
  const labelled = record.parts.find((p) => p.label !== undefined && normalizeName(p.label) === n && p.text);
  if (labelled) return labelled.text;
  const inText = labelledInText(record.text, n);
  if (inText) return inText;
  // The shortest such part: "31 comments" rather than the whole line that holds it.
  const singular = n.endsWith('s') ? n.slice(0, -1) : n;
  let naming: RecordPart | undefined;
  for (const p of record.parts) {
    const text = p.text.toLowerCase();
    if (p.text.length > 40 || !/\d/.test(text) || !(hasWord(text, n) || hasWord(text, singular))) continue;
    if (!naming || p.text.length < naming.text.length) naming = p;
  }
  return naming?.text ?? null;
}

/** "… by jane · 31 comments": the name after the record's last "by", when no part is named for authors. */
function authorInText(text: string): string | null {
  let found: string | null = null;
  for (const m of text.slice(0, 2000).matchAll(/(?:^|\s)by\s+(\p{L}[\p{L}\p{N}_.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,3})/gu))
    found = m[1] ?? found;
  return found;
}

/** One record's value for a field, before conversion to the field's type. */
export function recordValue(record: ContentRecord, field: string, role: Role | null, type: FieldType): unknown {
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
      return type === 'number' || type === 'integer' ? price.amount : price.raw;
    }
    case 'currency':
      return priceOf(record)?.currency ?? null;
    case 'date':
      return dateOf(record, type);
    case 'rating':
      return ratingOf(record);
    case 'author': {
      const part = byHint(record.parts, ROLE_WORDS.author, (p) => p.text !== '');
      return part ? part.text.replace(/^by\s+/i, '') : (namedOf(record, field) ?? authorInText(record.text));
    }
    case 'description':
      return descriptionOf(record, new Set([name?.text ?? '']));
    case 'text':
      return record.text;
    default:
      return namedOf(record, field);
  }
}

const AUTO_ROLES: Role[] = ['name', 'url', 'image', 'price', 'currency', 'date', 'rating', 'author', 'description'];

/** Columns chosen without `fields`: the standard roles at least half of the records have. */
export function autoColumns(group: RecordGroup): string[] {
  const sample = group.records.slice(0, 50);
  const columns: string[] = [];
  for (const role of AUTO_ROLES) {
    const filled = sample.filter((r) => {
      const v = recordValue(r, role, role, fieldType(role));
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
 * The group's records as items, each field of its one type. Fields the visible record lacks come
 * from the page's JSON-LD list entry for it (matched by URL or name): list pages often keep prices
 * and SKUs only there. A field that names no part of any record ("step" on a plain list), when no
 * field asks for the name, is what each record is about: its name, as a table row's is its first column.
 */
export function recordItems(
  group: RecordGroup,
  fields: string[],
  types: Record<string, FieldType>,
  entries: LdEntry[] = [],
  nameFallback = true,
): Item[] {
  const items = group.records.map((record) => {
    const item: Item = {};
    const missing: string[] = [];
    for (const field of fields) {
      const type = types[field] ?? fieldType(field);
      item[field] = coerce(recordValue(record, field, roleOf(field), type), type);
      if (item[field] === null || item[field] === '') missing.push(field);
    }
    if (missing.length === 0 || entries.length === 0) return item;
    const name = nameOf(record);
    const entry = entryFor(entries, urlOf(record, name), name?.text);
    if (!entry) return item;
    for (const field of missing) {
      const value = entryValue(entry, field, roleOf(field));
      if (value !== null) item[field] = coerce(value, types[field] ?? fieldType(field));
    }
    return item;
  });
  const nameless =
    !nameFallback || fields.some((f) => roleOf(f) === 'name') ? undefined : fields.find((f) => roleOf(f) === null);
  if (nameless !== undefined && items.every((item) => item[nameless] === null || item[nameless] === '')) {
    const type = types[nameless] ?? fieldType(nameless);
    group.records.forEach((record, i) => {
      (items[i] as Item)[nameless] = coerce(nameOf(record)?.text ?? null, type);
    });
  }
  return items;
}
