/**
 * Ludicrous mode: items from the content model with no model at all. Every collection of the page
 * (tables, repeated records) is a candidate; the cmd's words and the fields decide which one is
 * meant, and a page with none gives one item from its metadata and content. Pure and deterministic.
 */
import type { ContentTable, PageContent, RecordGroup } from '@tandem/shared';
import { articleItem, isArticleLike } from './article';
import { fieldTypes } from './hints';
import { listEntries } from './jsonld';
import { autoColumns, columnsWithLd, type Item, recordItems } from './records';
import { normalizeName, roleOf } from './roles';
import { columnKeys, tableCoverage, tableItems } from './tables';

export type { Item } from './records';

export interface HeuristicResult {
  items: Item[];
  /** What the items came from, for the message. */
  source: 'table' | 'records' | 'page';
}

const SAMPLE = 20;

function fillRatio(items: Item[], fields: string[]): number {
  if (items.length === 0 || fields.length === 0) return 0;
  let filled = 0;
  for (const item of items)
    for (const f of fields) if (item[f] !== null && item[f] !== undefined && item[f] !== '') filled++;
  return filled / (items.length * fields.length);
}

/**
 * Records outside navigation, header, footer and asides are the candidates; a list there counts only
 * when the cmd names it ("the categories in the sidebar") or when the page has nothing else.
 */
function candidateGroups(content: PageContent, words: Set<string>): RecordGroup[] {
  const main = content.records.filter((g) => !g.in_nav);
  if (main.length === 0) return content.records;
  return content.records.filter((g) => !g.in_nav || nameScore(words, groupNames(g)) > 0);
}

/** Words a cmd uses for asking, not for naming what it wants. */
const FILLER = new Set(
  'a an the all every each of from on in at for to and or with as by is are be get give me list show find extract return fetch scrape retrieve read take collect grab page site this that these those their its item items entry entries data row rows please want need'.split(
    ' ',
  ),
);

const stem = (word: string) => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word);

/**
 * The cmd's words that can name a collection, singular: not filler, and not a field's name (in "the
 * price table", "price" says what to read, "table" which collection). Linear in the cmd.
 */
export function cmdWords(cmd: string, fields: readonly string[] = []): Set<string> {
  const fieldWords = new Set(fields.flatMap((f) => normalizeName(f).split(' ').map(stem)));
  const out = new Set<string>();
  for (const word of cmd.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const w = stem(word);
    if (!FILLER.has(word) && !fieldWords.has(w) && roleOf(w) === null) out.add(w);
  }
  return out;
}

/** How many of the cmd's words name a collection (its heading, caption, headers, classes, its kind). */
function nameScore(words: Set<string>, names: string): number {
  if (words.size === 0) return 0;
  const own = new Set((names.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem));
  let score = 0;
  for (const word of words) if (own.has(word)) score++;
  return score;
}

const tableNames = (t: ContentTable) => `table ${t.heading ?? ''} ${t.caption} ${t.headers.join(' ')}`;
const groupNames = (g: RecordGroup) =>
  `${/^(li|dt|tr)\./.test(g.signature) ? 'list' : 'cards list'} ${g.heading ?? ''} ${g.signature.replace(/[.+_-]/g, ' ')} ${g.container.replace(/[.#_-]/g, ' ')}`;

const ARTICLE_ROLES = new Set(['author', 'text', 'site_name']);
/** A collection filling less than this share of the fields is not what was asked for. */
const MIN_FILL = 0.34;

interface Candidate {
  /** Words of the cmd naming it. */
  named: number;
  /** Share of requested fields it fills (1 without fields). */
  ratio: number;
  /** Items it holds (columns count in, without fields). */
  size: number;
  build: () => HeuristicResult;
}

/** Named by the cmd first, then filled fields (a clearly better fill wins), then size. */
function best(candidates: Candidate[]): Candidate | undefined {
  return [...candidates].sort((a, b) => {
    if (a.named !== b.named) return b.named - a.named;
    if (Math.abs(a.ratio - b.ratio) > 0.15) return b.ratio - a.ratio;
    return b.size - a.size;
  })[0];
}

export function extractHeuristic(content: PageContent, cmd: string, fields: string[] | undefined): HeuristicResult {
  const words = cmdWords(cmd, fields ?? []);
  const groups = candidateGroups(content, words);
  const tables = content.tables.filter((t) => t.rows.length >= 2);
  const articleLike = isArticleLike(content);
  const entries = listEntries(content);

  if (!fields) {
    const candidates: Candidate[] = [];
    for (const table of tables) {
      if (table.headers.length === 0 && groups.length > 0) continue;
      candidates.push({
        named: nameScore(words, tableNames(table)),
        ratio: 1,
        // A table with headers is as good as a list of the same length.
        size: table.rows.length * Math.max(2, table.headers.length) + 0.5,
        build: () => ({ items: tableItems(table, undefined, fieldTypes(cmd, columnKeys(table))), source: 'table' }),
      });
    }
    for (const group of groups) {
      if (articleLike && group.records.length < 3) continue;
      const columns = autoColumns({ ...group, records: group.records.slice(0, SAMPLE) });
      candidates.push({
        named: nameScore(words, groupNames(group)),
        ratio: 1,
        size: group.records.length * columns.length,
        build: () => {
          const all = columnsWithLd(group, entries);
          return { items: recordItems(group, all, fieldTypes(cmd, all), entries), source: 'records' };
        },
      });
    }
    // An article with a few lists beside it is one item, unless the cmd names a list.
    const chosen = best(candidates);
    if (chosen && (!articleLike || chosen.named > 0 || content.article?.readerable !== true)) return chosen.build();
    const types = fieldTypes(cmd, ['published', 'date']);
    return { items: [articleItem(content, undefined, types)], source: 'page' };
  }

  const types = fieldTypes(cmd, fields);
  const articleFields =
    fields.some((f) => ARTICLE_ROLES.has(roleOf(f) ?? '')) && !fields.some((f) => roleOf(f) === 'price');
  if (articleLike && articleFields) return { items: [articleItem(content, fields, types)], source: 'page' };

  const candidates: Candidate[] = [];
  for (const table of tables) {
    if (tableCoverage(table, fields) === 0) continue;
    const sample = tableItems({ ...table, rows: table.rows.slice(0, SAMPLE) }, fields, types);
    const ratio = fillRatio(sample, fields);
    candidates.push({
      named: ratio >= MIN_FILL ? nameScore(words, tableNames(table)) : 0,
      ratio,
      size: table.rows.length,
      build: () => ({ items: tableItems(table, fields, types), source: 'table' }),
    });
  }
  for (const group of groups) {
    const sampled = { ...group, records: group.records.slice(0, SAMPLE) };
    // A field filled only by the name fallback (see recordItems) counts half: a collection whose
    // parts the fields really name is a better fit.
    const ratio =
      (fillRatio(recordItems(sampled, fields, types, entries), fields) +
        fillRatio(recordItems(sampled, fields, types, entries, false), fields)) /
      2;
    candidates.push({
      named: ratio >= MIN_FILL ? nameScore(words, groupNames(group)) : 0,
      ratio,
      size: group.records.length,
      build: () => ({ items: recordItems(group, fields, types, entries), source: 'records' }),
    });
  }
  const chosen = best(candidates);
  if (chosen && (chosen.ratio >= MIN_FILL || !articleLike)) return chosen.build();
  return { items: [articleItem(content, fields, types)], source: 'page' };
}
