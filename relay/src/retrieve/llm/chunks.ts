/** Long pages in overlapping chunks, and the chunks' items merged back in page order. Pure. */

export const DEFAULT_CHUNK_CHARS = 24_000;
export const DEFAULT_OVERLAP_CHARS = 1_500;

function hardSplit(block: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < block.length; i += size) out.push(block.slice(i, i + size));
  return out;
}

/**
 * Splits Markdown at block boundaries ("\n\n") into chunks of at most `size` characters; each chunk
 * after the first repeats the last blocks of the previous one, up to `overlap` characters, so an item
 * cut at a boundary is whole in one of them.
 */
export function chunkMarkdown(markdown: string, size = DEFAULT_CHUNK_CHARS, overlap = DEFAULT_OVERLAP_CHARS): string[] {
  if (markdown.length <= size) return [markdown];
  const blocks = markdown.split(/\n{2,}/).flatMap((b) => (b.length > size ? hardSplit(b, size) : [b]));
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const block of blocks) {
    if (length + block.length + 2 > size && current.length > 0) {
      chunks.push(current.join('\n\n'));
      const carried: string[] = [];
      let carriedLength = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        const b = current[i] as string;
        if (carriedLength + b.length + 2 > Math.min(overlap, size - block.length - 2)) break;
        carried.unshift(b);
        carriedLength += b.length + 2;
      }
      current = carried;
      length = carriedLength;
    }
    current.push(block);
    length += block.length + 2;
  }
  if (current.length > 0) chunks.push(current.join('\n\n'));
  return chunks;
}

function keyOf(item: Record<string, unknown>): string {
  const values = Object.keys(item)
    .sort()
    .map((k) => {
      const v = item[k];
      return typeof v === 'string' ? v.trim().toLowerCase() : JSON.stringify(v ?? null);
    });
  return JSON.stringify(values);
}

/**
 * Concatenates the chunks' items in order. An item equal to one of the previous chunk's items is the
 * overlap seen twice and is dropped; repeats inside one chunk are the page's own and stay.
 */
export function mergeChunks(results: Record<string, unknown>[][]): Record<string, unknown>[] {
  const merged: Record<string, unknown>[] = [];
  let previous = new Set<string>();
  for (const items of results) {
    const keys = new Set<string>();
    for (const item of items) {
      const key = keyOf(item);
      keys.add(key);
      if (previous.has(key)) continue;
      merged.push(item);
    }
    previous = keys;
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
