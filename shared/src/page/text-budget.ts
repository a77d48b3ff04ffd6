import { arrSort, joinStrings, mathMax, strSlice } from './intrinsics';
import { capText } from './text';

/** `element`: holds an indexed element; `marker`: page structure notes (scroll position, frames). */
export type LineKind = 'element' | 'heading' | 'text' | 'marker';

export interface Line {
  text: string;
  kind: LineKind;
  in_viewport: boolean;
}

export interface BudgetResult {
  text: string;
  truncated: boolean;
  omitted_chars: number;
}

/** Text lines longer than this are shortened before any line is dropped. */
export const LONG_LINE = 300;
/** Stands for a run of dropped lines, so the model knows something was there. */
export const GAP = '…';

const NO_LINE = 1e9;

/** Distance in lines from each line to the nearest line matching `pick` (NO_LINE when there is none). */
function distances(lines: readonly Line[], pick: (line: Line) => boolean): number[] {
  const out: number[] = [];
  let last = -NO_LINE;
  for (let i = 0; i < lines.length; i++) {
    if (pick(lines[i] as Line)) last = i;
    out[i] = i - last;
  }
  last = NO_LINE * 2;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (pick(lines[i] as Line)) last = i;
    const d = last - i;
    if (d < (out[i] as number)) out[i] = d;
  }
  return out;
}

/**
 * Drop order, least useful first: page text far from any element and outside the viewport, then
 * nearer text, then headings, then elements outside the viewport (farthest first), then the rest.
 * Markers are never dropped.
 */
function dropOrder(lines: readonly Line[]): number[] {
  const toElement = distances(lines, (l) => l.kind === 'element');
  const toViewport = distances(lines, (l) => l.in_viewport);
  const score: number[] = [];
  const order: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const d = line.kind === 'element' ? (toViewport[i] as number) : (toElement[i] as number);
    let tier: number;
    if (line.kind === 'marker') continue;
    if (line.kind === 'text') tier = line.in_viewport ? 1 : 0;
    else if (line.kind === 'heading') tier = line.in_viewport ? 3 : 2;
    else tier = line.in_viewport ? 5 : 4;
    // Higher score drops first: lower tier, then farther away, then later in the page.
    score[i] = (10 - tier) * 1e12 + (d > 1e6 ? 1e6 : d) * 1e6 + i;
    order[order.length] = i;
  }
  return arrSort(order, (a, b) => (score[b] as number) - (score[a] as number));
}

function note(omitted: number, max: number): string {
  return `[${omitted} characters of page text left out to fit the ${max}-character budget; scroll or ask for less]`;
}

/**
 * Fits lines into `max` characters, dropping the least useful text first and saying so in a final
 * line. Each run of dropped lines leaves a `…` line in its place.
 */
export function fitToBudget(input: readonly Line[], max: number): BudgetResult {
  const full = joinLines(input);
  if (full.length <= max) return { text: full, truncated: false, omitted_chars: 0 };

  const lines: Line[] = [];
  for (let i = 0; i < input.length; i++) {
    const line = input[i] as Line;
    lines[i] = line.kind === 'text' ? { ...line, text: capText(line.text, LONG_LINE) } : line;
  }
  const reserve = note(full.length, max).length + 1;
  const dropped: boolean[] = [];
  let size = -1; // n lines joined by n-1 newlines
  for (let i = 0; i < lines.length; i++) {
    size += (lines[i] as Line).text.length + 1;
    dropped[i] = false;
  }
  const order = dropOrder(lines);
  const gapLine = GAP.length + 1;
  for (let k = 0; k < order.length && size > max - reserve; k++) {
    const i = order[k] as number;
    const before = i > 0 && dropped[i - 1] === true;
    const after = i < lines.length - 1 && dropped[i + 1] === true;
    size -= (lines[i] as Line).text.length + 1;
    // A new gap line appears, two gaps merge into one, or the line joins an existing gap.
    if (!before && !after) size += gapLine;
    else if (before && after) size -= gapLine;
    dropped[i] = true;
  }

  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!dropped[i]) kept[kept.length] = (lines[i] as Line).text;
    else if (i === 0 || !dropped[i - 1]) kept[kept.length] = GAP;
  }
  let text = joinStrings(kept, '\n');
  if (text.length > max - reserve) text = strSlice(text, 0, mathMax(0, max - reserve - 1)) + GAP;
  const omitted = full.length - text.length;
  text += `\n${note(omitted, max)}`;
  return { text, truncated: true, omitted_chars: omitted };
}

function joinLines(lines: readonly Line[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; i++) parts[i] = (lines[i] as Line).text;
  return joinStrings(parts, '\n');
}
