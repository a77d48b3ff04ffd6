/** Long pages in overlapping chunks, and the chunks' items merged back in page order. Pure. */
import { roleOf } from '../heuristic/roles';

export const DEFAULT_CHUNK_CHARS = 24_000;
export const DEFAULT_OVERLAP_CHARS = 1_500;

/** A piece chunks are made of: a block, or one line of a block larger than a chunk. */
interface Unit {
  text: string;
  /** What joins it to the unit before it: a blank line between blocks, a newline inside one. */
  sep: string;
}

function hardSplit(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Blocks, with those larger than a chunk (a long list or table) cut at their lines so that list
 * items stay whole and the overlap can repeat the last of them; only a line longer than a chunk is cut.
 */
function unitsOf(markdown: string, size: number): Unit[] {
  const units: Unit[] = [];
  for (const block of markdown.split(/\n{2,}/)) {
    const pieces = block.length > size ? block.split('\n').flatMap((line) => hardSplit(line, size)) : [block];
    pieces.forEach((text, i) => {
      units.push({ text, sep: i === 0 ? '\n\n' : '\n' });
    });
  }
  return units;
}

const join = (units: Unit[]) => units.map((u, i) => (i === 0 ? u.text : u.sep + u.text)).join('');

/**
 * Splits Markdown at block (or, inside a block larger than a chunk, line) boundaries into chunks of
 * at most `size` characters; each chunk after the first repeats the last units of the previous one,
 * up to `overlap` characters, so an item cut at a boundary is whole in one of them.
 */
export function chunkMarkdown(markdown: string, size = DEFAULT_CHUNK_CHARS, overlap = DEFAULT_OVERLAP_CHARS): string[] {
  if (markdown.length <= size) return [markdown];
  const chunks: string[] = [];
  let current: Unit[] = [];
  let length = 0;
  for (const unit of unitsOf(markdown, size)) {
    if (length + unit.text.length + unit.sep.length > size && current.length > 0) {
      chunks.push(join(current));
      const carried: Unit[] = [];
      let carriedLength = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        const u = current[i] as Unit;
        if (carriedLength + u.text.length + 2 > Math.min(overlap, size - unit.text.length - 2)) break;
        carried.unshift(u);
        carriedLength += u.text.length + 2;
      }
      current = carried;
      length = carriedLength;
    }
    current.push(unit);
    length += unit.text.length + unit.sep.length;
  }
  if (current.length > 0) chunks.push(join(current));
  return chunks;
}

type Item = Record<string, unknown>;

const filled = (v: unknown) => v !== null && v !== undefined && v !== '';

function comparable(v: unknown): string {
  return typeof v === 'string' ? v.replace(/\s+/g, ' ').trim().toLowerCase() : JSON.stringify(v);
}

/** Fields filled, then characters: a description cut at the seam is shorter than the whole one. */
function fullness(item: Item): [number, number] {
  const values = Object.values(item).filter(filled);
  return [values.length, values.reduce<number>((n, v) => n + (typeof v === 'string' ? v.trim().length : 0), 0)];
}

function isFuller(a: Item, b: Item): boolean {
  const [fa, ca] = fullness(a);
  const [fb, cb] = fullness(b);
  return fa > fb || (fa === fb && ca > cb);
}

/** The value of the first key with `role` that both items fill, if both agree on it. */
function sharedRole(a: Item, b: Item, role: 'url' | 'name'): boolean {
  for (const key of Object.keys(a)) {
    if (roleOf(key) !== role || !filled(a[key]) || !filled(b[key])) continue;
    return comparable(a[key]) === comparable(b[key]);
  }
  return false;
}

/**
 * The same item seen from both sides of a seam: every field both fill agrees (and they fill one in
 * common), or they share a URL, or a name with no URL against it.
 */
export function sameItem(a: Item, b: Item): boolean {
  let common = 0;
  let conflicts = 0;
  let urlConflict = false;
  for (const key of Object.keys(a)) {
    if (!filled(a[key]) || !filled(b[key])) continue;
    common++;
    if (comparable(a[key]) !== comparable(b[key])) {
      conflicts++;
      if (roleOf(key) === 'url') urlConflict = true;
    }
  }
  if (common > 0 && conflicts === 0) return true;
  if (sharedRole(a, b, 'url')) return true;
  return !urlConflict && sharedRole(a, b, 'name');
}

/** Two partial views that fill different fields: the two halves of an item a seam cut. */
function halves(a: Item, b: Item): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length || !keys.every((k) => k in b)) return false;
  const inA = keys.filter((k) => filled(a[k]));
  const inB = keys.filter((k) => filled(b[k]));
  return (
    inA.length > 0 &&
    inB.length > 0 &&
    inA.length < keys.length &&
    inB.length < keys.length &&
    !inA.some((k) => filled(b[k]))
  );
}

/** The fuller of two views of one item, its gaps filled from the other; the earlier wins ties. */
function fuller(earlier: Item, later: Item): Item {
  const [main, other] = isFuller(later, earlier) ? [later, earlier] : [earlier, later];
  const out: Item = { ...main };
  for (const [key, value] of Object.entries(other)) if (!filled(out[key]) && filled(value)) out[key] = value;
  return out;
}

/**
 * Concatenates the chunks' items in page order. Chunks overlap, so an item near a seam comes back
 * twice, and when the seam cut it, partly filled on one side and whole on the other: each item of a
 * chunk is matched, in order, against the previous chunk's items not matched yet and merged into the
 * fuller view. Repeats inside one chunk are the page's own and stay.
 */
export function mergeChunks(results: Item[][]): Item[] {
  const merged: Item[] = [];
  let previous: number[] = [];
  for (const items of results) {
    const current: number[] = [];
    let cursor = 0;
    for (const item of items) {
      let match = -1;
      for (let i = cursor; i < previous.length; i++) {
        const at = previous[i] as number;
        if (sameItem(merged[at] as Item, item)) {
          match = i;
          break;
        }
      }
      if (match < 0 && current.length === 0 && previous.length > 0) {
        // The first item of a chunk and the last of the one before, each half filled with no field
        // in common: one item cut in two where no overlap repeated it.
        const last = previous.length - 1;
        if (cursor <= last && halves(merged[previous[last] as number] as Item, item)) match = last;
      }
      if (match >= 0) {
        const at = previous[match] as number;
        merged[at] = fuller(merged[at] as Item, item);
        current.push(at);
        cursor = match + 1;
      } else {
        merged.push(item);
        current.push(merged.length - 1);
      }
    }
    previous = current;
  }
  return merged;
}

/** Runs `task` over `inputs` with at most `limit` at a time; results in input order. */
export async function mapLimit<T, R>(
  inputs: T[],
  limit: number,
  task: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      results[i] = await task(inputs[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return results;
}
