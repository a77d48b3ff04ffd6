import type { ContentTable, TableCell } from '../content-schema';
import { elQueryAll, getAttr } from '../dom-intrinsics';
import { append, toNumber } from '../intrinsics';
import { absoluteUrl, imageSource, isHidden, type Scope, tagOf, textOf } from './dom';

function cellOf(cell: Element, scope: Scope): TableCell {
  const out: TableCell = { text: textOf(cell, scope) };
  const links = elQueryAll(cell, 'a[href]');
  if (links.length > 0) {
    const href = absoluteUrl(getAttr(links[0] as Element, 'href'), scope.base);
    if (href) out.href = href;
  }
  const images = elQueryAll(cell, 'img');
  if (images.length > 0) {
    const { src } = imageSource(images[0] as Element, scope.base);
    if (src) out.src = src;
  }
  return out;
}

/** Rows of this table only (not of tables nested in its cells). */
function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  const all = elQueryAll(table, 'tr');
  for (let i = 0; i < all.length; i++) {
    const row = all[i] as Element;
    let p = row.parentElement;
    while (p && tagOf(p) !== 'table') p = p.parentElement;
    if (p === table) append(rows, row);
  }
  return rows;
}

/** A table as headers + rows: headers from <thead> or a first row of <th>. */
export function readTable(table: Element, scope: Scope): ContentTable {
  const rows = ownRows(table);
  let headers: string[] = [];
  const body: TableCell[][] = [];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Element;
    if (isHidden(row, scope)) continue;
    const cells = row.children;
    let allTh = cells.length > 0;
    const inHead = row.parentElement !== null && tagOf(row.parentElement) === 'thead';
    const values: TableCell[] = [];
    for (let c = 0; c < cells.length; c++) {
      const cell = cells[c] as Element;
      const tag = tagOf(cell);
      if (tag !== 'td' && tag !== 'th') continue;
      if (tag !== 'th') allTh = false;
      const cellValue = cellOf(cell, scope);
      const span = toNumber(getAttr(cell, 'colspan') ?? '1') || 1;
      for (let s = 0; s < span && s < 20; s++) append(values, s === 0 ? cellValue : { text: '' });
    }
    if (headers.length === 0 && body.length === 0 && (inHead || allTh)) {
      headers = [];
      for (let i = 0; i < values.length; i++) append(headers, (values[i] as TableCell).text);
      continue;
    }
    if (values.length > 0) append(body, values);
  }
  const captions = elQueryAll(table, 'caption');
  const caption = captions.length > 0 ? textOf(captions[0] as Element, scope) : '';
  return { headers, rows: body, caption };
}
