/** Tables → items by header. Pure. */
import type { ContentTable, TableCell } from '@tandem/shared';
import { coerce } from '../coerce';
import { type FieldType, fieldType } from './hints';
import type { Item } from './records';
import { normalizeName, roleOf } from './roles';

/** Header names as item keys: "Population (2024)" → "population_2024"; blanks become column_N. */
export function columnKeys(table: ContentTable): string[] {
  const width = Math.max(table.headers.length, ...table.rows.map((r) => r.length));
  const keys: string[] = [];
  for (let i = 0; i < width; i++) {
    const header = normalizeName(table.headers[i] ?? '')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '');
    let key = header || `column_${i + 1}`;
    while (keys.includes(key)) key += '_';
    keys.push(key);
  }
  return keys;
}

/** The column a field names: exact header, header containing it, or it containing the header. */
function columnOf(table: ContentTable, field: string): number {
  const n = normalizeName(field);
  const headers = table.headers.map((h) => normalizeName(h));
  let at = headers.indexOf(n);
  if (at < 0) at = headers.findIndex((h) => h !== '' && (h.includes(n) || n.includes(h)));
  if (at < 0) {
    const role = roleOf(field);
    if (role) at = headers.findIndex((h) => roleOf(h) === role);
    // A row's name, when no column says "name", is its first column (what the row is about).
    if (at < 0 && role === 'name') at = 0;
  }
  return at;
}

function cellValue(cell: TableCell | undefined, field: string): unknown {
  if (!cell) return null;
  const role = roleOf(field);
  if (role === 'url') return cell.href ?? null;
  if (role === 'image') return cell.src ?? null;
  return cell.text === '' ? null : cell.text;
}

export function tableItems(
  table: ContentTable,
  fields: string[] | undefined,
  types: Record<string, FieldType>,
): Item[] {
  if (!fields) {
    const keys = columnKeys(table);
    return table.rows.map((row) => {
      const item: Item = {};
      keys.forEach((key, i) => {
        item[key] = coerce(cellValue(row[i], key), types[key] ?? fieldType(key));
        const href = row[i]?.href;
        if (href && i === 0) item.url = href;
      });
      return item;
    });
  }
  const columns = fields.map((f) => columnOf(table, f));
  return table.rows.map((row) => {
    const item: Item = {};
    fields.forEach((field, i) => {
      const column = columns[i] ?? -1;
      let value: unknown = column >= 0 ? cellValue(row[column], field) : null;
      // "url"/"link" with no such column: the first link in the row.
      if (value === null && roleOf(field) === 'url') value = row.find((c) => c.href)?.href ?? null;
      if (value === null && roleOf(field) === 'image') value = row.find((c) => c.src)?.src ?? null;
      item[field] = coerce(value, types[field] ?? fieldType(field));
    });
    return item;
  });
}

/** How many of the requested fields map to a column. */
export function tableCoverage(table: ContentTable, fields: string[]): number {
  return fields.filter((f) => columnOf(table, f) >= 0 || roleOf(f) === 'url').length;
}
