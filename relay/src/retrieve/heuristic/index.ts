/**
 * Ludicrous mode: items from the content model with no model at all. Tables map by header, repeated
 * records by recognised fields, single-subject pages to one item from metadata and content. Pure and
 * deterministic.
 */
import type { PageContent, RecordGroup } from '@tandem/shared';
import { articleItem, isArticleLike } from './article';
import { typeHints } from './hints';
import { listEntries } from './jsonld';
import { autoColumns, columnsWithLd, type Item, recordItems } from './records';
import { roleOf } from './roles';
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

/** Records outside navigation first; a page that is all navigation still has its lists. */
function candidateGroups(content: PageContent): RecordGroup[] {
  const main = content.records.filter((g) => !g.in_nav);
  return main.length > 0 ? main : content.records;
}

const ARTICLE_ROLES = new Set(['author', 'text', 'site_name']);

export function extractHeuristic(content: PageContent, cmd: string, fields: string[] | undefined): HeuristicResult {
  const groups = candidateGroups(content);
  const tables = content.tables.filter((t) => t.rows.length >= 2);
  const articleLike = isArticleLike(content);
  const entries = listEntries(content);

  if (!fields) {
    const types = typeHints(cmd, [...new Set([...groups.flatMap((g) => autoColumns(g)), 'price', 'date', 'rating'])]);
    const group = groups
      .map((g) => ({ g, score: g.records.length * autoColumns({ ...g, records: g.records.slice(0, SAMPLE) }).length }))
      .sort((a, b) => b.score - a.score)[0]?.g;
    const table = [...tables].sort((a, b) => b.rows.length - a.rows.length)[0];
    if (table && table.headers.length > 0 && (!group || table.rows.length >= group.records.length)) {
      return { items: tableItems(table, undefined, typeHints(cmd, columnKeys(table))), source: 'table' };
    }
    if (group && !(articleLike && group.records.length < 3)) {
      return { items: recordItems(group, columnsWithLd(group, entries), types, entries), source: 'records' };
    }
    if (table) return { items: tableItems(table, undefined, typeHints(cmd, columnKeys(table))), source: 'table' };
    return { items: [articleItem(content, undefined, typeHints(cmd, ['published', 'date']))], source: 'page' };
  }

  const types = typeHints(cmd, fields);
  const articleFields =
    fields.some((f) => ARTICLE_ROLES.has(roleOf(f) ?? '')) && !fields.some((f) => roleOf(f) === 'price');
  if (articleLike && articleFields) return { items: [articleItem(content, fields, types)], source: 'page' };

  type Candidate = { ratio: number; count: number; build: () => HeuristicResult };
  const candidates: Candidate[] = [];
  for (const table of tables) {
    if (tableCoverage(table, fields) === 0) continue;
    const sample = tableItems({ ...table, rows: table.rows.slice(0, SAMPLE) }, fields, types);
    candidates.push({
      ratio: fillRatio(sample, fields),
      count: table.rows.length,
      build: () => ({ items: tableItems(table, fields, types), source: 'table' }),
    });
  }
  for (const group of groups) {
    const sample = recordItems({ ...group, records: group.records.slice(0, SAMPLE) }, fields, types, entries);
    candidates.push({
      ratio: fillRatio(sample, fields),
      count: group.records.length,
      build: () => ({ items: recordItems(group, fields, types, entries), source: 'records' }),
    });
  }
  // Near-equal fill: the bigger list wins; a clearly better fill wins outright.
  candidates.sort((a, b) => (Math.abs(a.ratio - b.ratio) > 0.15 ? b.ratio - a.ratio : b.count - a.count));
  const best = candidates[0];
  if (best && (best.ratio >= 0.34 || !articleLike)) return best.build();
  return { items: [articleItem(content, fields, types)], source: 'page' };
}
