import type { Action, SnapshotElement } from '@tandem/shared';
import { isPassword, isTypeable } from './elements';
import { act, describeElement, quote, type Resolution, type ResolveContext } from './resolution';
import { click, submitButton } from './resolve-forms';
import { wordScore, words } from './text';

/** Words that open a qualifier of the thing searched for: "directed by X", "from 2011", "in Paris". */
const RELATIONS = new Set([
  'by',
  'from',
  'in',
  'on',
  'for',
  'with',
  'of',
  'at',
  'to',
  'during',
  'since',
  'before',
  'after',
  'near',
  'under',
  'over',
  'starring',
  'featuring',
  'about',
]);
const FILLER = new Set(['the', 'a', 'an', 'year', 'years', 'named', 'called']);
/** A form search needs at least this many named fields; more than this would be a guess, not a search. */
const MIN_FIELDS = 2;
const MAX_FIELDS = 5;

interface Segment {
  /** The user's words, as written. */
  words: string[];
  first: boolean;
}

/**
 * Cuts a query at its qualifiers: "drama movies directed by Holloway from year 2011" →
 * "drama movies" | "directed by Holloway" | "from year 2011". A participle before a relation word goes
 * with the qualifier it introduces ("directed by").
 */
function segments(query: string): Segment[] {
  const tokens = query.split(/\s+/).filter(Boolean);
  const out: Segment[] = [];
  let current: string[] = [];
  tokens.forEach((token, i) => {
    const lower = token.toLowerCase();
    const relation = RELATIONS.has(lower) && i > 0;
    const participle = /ed$/.test(lower) && RELATIONS.has(tokens[i + 1]?.toLowerCase() ?? '') && i > 0;
    if ((relation && !/ed$/.test(tokens[i - 1]?.toLowerCase() ?? '')) || participle) {
      if (current.length) out.push({ words: current, first: out.length === 0 });
      current = [];
    }
    current.push(token);
  });
  if (current.length) out.push({ words: current, first: out.length === 0 });
  return out;
}

/** Fields named for who made a thing: "by X" goes there when no word says otherwise. */
const MAKER =
  /^(?:author|authors|writer|director|artist|creator|composer|maker|brand|seller|publisher|by|band|singer|designer)$/;
/** Fields named for when: a year or date goes there. */
const WHEN = /^(?:year|date|published|released|release|when|from|since|made|issued|built)$/;

/** How well a qualifier fits a field's name: its best word against the name's words, or what its relation implies. */
function affinity(segment: Segment, field: SnapshotElement): number {
  const label = words(field.name);
  const lead = segment.words.map((w) => w.toLowerCase());
  if (lead.includes('by') && label.some((l) => MAKER.test(l))) return 0.8;
  if (lead.some((w) => /^(?:1\d|20)\d\d$/.test(w)) && label.some((l) => WHEN.test(l))) return 0.8;
  let best = 0;
  for (const word of segment.words) {
    for (const w of words(word)) for (const l of label) best = Math.max(best, wordScore(w, l));
  }
  return best >= 0.75 ? best : 0;
}

/**
 * The value inside a qualifier: without relation and filler words, the words that matched the field's
 * name, a participle ("directed"), the thing searched for at the end of the first part ("movies"), and
 * around a number, the nouns that only say what the number is ("year 2011").
 */
function valueIn(segment: Segment, field: SnapshotElement): string {
  const label = words(field.name);
  let kept = segment.words.filter((word, i) => {
    const lower = word.toLowerCase();
    if (RELATIONS.has(lower) || FILLER.has(lower)) return false;
    if (/ed$/.test(lower) && RELATIONS.has(segment.words[i + 1]?.toLowerCase() ?? '')) return false;
    return !words(word).some((w) => label.some((l) => wordScore(w, l) >= 0.75));
  });
  if (segment.first && kept.length > 1 && /[^s]s$/i.test(kept.at(-1)!)) kept = kept.slice(0, -1);
  const number = kept.find((word) => /^\d[\d.,/-]*$/.test(word));
  if (number && kept.every((word) => word === number || word === word.toLowerCase())) kept = [number];
  return kept.join(' ');
}

/**
 * "search for drama movies directed by Holloway from year 2011" on a page with no search box but a form
 * of named fields (Genre, Director, Year): each qualifier goes into the field its words name, the one
 * left over into the field left over, then the form is sent. Undefined when the query does not map, or
 * when fewer than `minNamed` qualifiers found their field by name. `besides` is a search box left out.
 */
export function formSearch(
  query: string,
  ctx: ResolveContext,
  { minNamed = 0, besides }: { minNamed?: number; besides?: SnapshotElement | undefined } = {},
): Resolution | undefined {
  const fields = ctx.snapshot.elements.filter(
    (e) => isTypeable(e) && !isPassword(e) && e.in_viewport && e.name && e !== besides,
  );
  if (fields.length < MIN_FIELDS || fields.length > MAX_FIELDS) return undefined;
  const parts = segments(query);
  if (parts.length !== fields.length) return undefined;
  const pairs: [Segment, SnapshotElement][] = [];
  const freeParts = new Set(parts);
  const freeFields = new Set(fields);
  const scored = parts.flatMap((p) => fields.map((f) => ({ p, f, score: affinity(p, f) })));
  for (const { p, f, score } of scored.sort((a, b) => b.score - a.score)) {
    if (score === 0 || !freeParts.has(p) || !freeFields.has(f)) continue;
    pairs.push([p, f]);
    freeParts.delete(p);
    freeFields.delete(f);
  }
  // One qualifier and one field left: they belong together.
  if (freeParts.size > 1 || pairs.length < minNamed) return undefined;
  if (freeParts.size === 1) pairs.push([[...freeParts][0]!, [...freeFields][0]!]);
  const entries = pairs.map(([p, f]) => ({ field: f, value: valueIn(p, f) }));
  if (entries.some((e) => e.value === '')) return undefined;
  entries.sort((a, b) => a.field.index - b.field.index);
  const actions: Action[] = entries.map((e) => ({
    action: 'type',
    index: e.field.index,
    text: e.value,
    clear: true,
    submit: false,
  }));
  const button = submitButton(ctx, entries.at(-1)!.field);
  if (button) actions.push(click(button));
  else actions.push({ action: 'press_key', key: 'Enter', modifiers: [] });
  const typed = entries.map((e) => `${quote(e.value)} into ${describeElement(e.field)}`).join(', ');
  return act(actions, [...entries.map((e) => e.field), button], `searched for ${quote(query)}: typed ${typed}`);
}
