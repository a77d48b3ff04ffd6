import type { ContentTable, TableCell } from '../content-schema';
import { elQueryAll, getAttr, getComputedStyleOf } from '../dom-intrinsics';
import { append, toNumber } from '../intrinsics';
import { collapseWhitespace } from '../text';
import { absoluteUrl, imageSource, isHidden, type Scope, tagOf, textOf } from './dom';
import { headingFor } from './headings';

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
  const bodyRows: Element[] = [];
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
    if (values.length > 0) {
      append(body, values);
      append(bodyRows, row);
    }
  }
  // No <th> header: a first row of <td> labels can still be one (see headerRow).
  if (headers.length === 0 && headerRow(body, bodyRows, scope)) {
    const first = body[0] as TableCell[];
    for (let i = 0; i < first.length; i++) append(headers, (first[i] as TableCell).text);
    for (let i = 1; i < body.length; i++) body[i - 1] = body[i] as TableCell[];
    body.length--;
  }
  const captions = elQueryAll(table, 'caption');
  const caption = captions.length > 0 ? textOf(captions[0] as Element, scope) : '';
  const result: ContentTable = { headers, rows: body, caption };
  const heading = headingFor(table, scope);
  if (heading) result.heading = heading;
  return result;
}

/** A header label: short text, no link or image, not a number, time or amount. */
function isLabel(cell: TableCell): boolean {
  return cell.text !== '' && cell.text.length <= MAX_LABEL && !cell.href && !cell.src && !NUMERIC.test(cell.text);
}
const MAX_LABEL = 60;
const NUMERIC = /^[\s\p{Sc}+\-−~≈#(]*\d/u;

/** How a row looks: its own and its first cell's background, and the first cell's weight, colour and case. */
function lookOf(row: Element): string {
  const cell = row.firstElementChild;
  const rowStyle = getComputedStyleOf(row);
  const cellStyle = cell ? getComputedStyleOf(cell) : rowStyle;
  return `${rowStyle.backgroundColor}|${cellStyle.backgroundColor}|${cellStyle.fontWeight}|${cellStyle.color}|${cellStyle.textTransform}|${cellStyle.fontStyle}`;
}

/**
 * Whether the first row of a table without <th> headers is its header: every cell a label, and the
 * row set apart from the rows below it — bold over rows that are not, a look of its own (rows below
 * alike, zebra stripes allowed), or labels over a column whose every other cell is a number.
 */
function headerRow(body: TableCell[][], rows: Element[], scope: Scope): boolean {
  if (body.length < 3) return false;
  const first = body[0] as TableCell[];
  if (first.length < 2 || first.length !== (body[1] as TableCell[]).length) return false;
  for (let i = 0; i < first.length; i++) if (!isLabel(first[i] as TableCell)) return false;
  if (allBold(rows[0] as Element, scope) && !allBold(rows[1] as Element, scope)) return true;
  const head = lookOf(rows[0] as Element);
  const second = lookOf(rows[1] as Element);
  const third = lookOf(rows[2] as Element);
  const fourth = rows.length > 3 ? lookOf(rows[3] as Element) : third;
  if (head !== second && head !== third && (second === third || second === fourth)) return true;
  for (let c = 0; c < first.length; c++) {
    let numbers = 0;
    for (let r = 1; r < body.length; r++) {
      const text = (body[r] as TableCell[])[c]?.text ?? '';
      if (text === '') continue;
      if (!NUMERIC.test(text)) {
        numbers = -1;
        break;
      }
      numbers++;
    }
    if (numbers >= 2) return true;
  }
  return false;
}

/** Every cell with text is bold: its text is all inside <b>, <strong> or a bold style. */
function allBold(row: Element, scope: Scope): boolean {
  const cells = row.children;
  let bold = 0;
  for (let c = 0; c < cells.length; c++) {
    const cell = cells[c] as Element;
    const text = textOf(cell, scope);
    if (text === '') continue;
    const style = getComputedStyleOf(cell);
    const weight = toNumber(style.fontWeight);
    if (weight >= 600 || style.fontWeight === 'bold') {
      bold++;
      continue;
    }
    const marks = elQueryAll(cell, 'b, strong');
    let marked = '';
    for (let m = 0; m < marks.length; m++) marked += textOf(marks[m] as Element, scope);
    if (collapseWhitespace(marked).length < text.length) return false;
    bold++;
  }
  return bold > 0;
}
