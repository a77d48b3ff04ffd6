import { describe, expect, it } from 'vitest';
import { chunkMarkdown, mapLimit, mergeChunks, sameItem } from './chunks';
import { parseItems } from './extract';

const blocks = Array.from({ length: 30 }, (_, i) => `Block ${i} ${'x'.repeat(80)}`);

describe('chunking', () => {
  it('keeps a short page whole', () => {
    expect(chunkMarkdown('short page', 100, 10)).toEqual(['short page']);
  });

  it('cuts at block boundaries within the size, repeating the previous chunk’s tail', () => {
    const chunks = chunkMarkdown(blocks.join('\n\n'), 500, 200);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(500);
    for (let i = 1; i < chunks.length; i++) {
      const previousLast = chunks[i - 1]?.split('\n\n').at(-1) as string;
      expect(chunks[i]?.split('\n\n').slice(0, 2)).toContain(previousLast);
    }
    const seen = new Set(chunks.flatMap((c) => c.split('\n\n')));
    expect(seen.size).toBe(30);
  });

  it('splits one block larger than a chunk', () => {
    const chunks = chunkMarkdown('y'.repeat(1200), 500, 100);
    expect(chunks.join('')).toBe('y'.repeat(1200));
  });

  it('merges in order, dropping the overlap seen twice but not repeats within a chunk', () => {
    const merged = mergeChunks([
      [{ n: 'a' }, { n: 'b' }, { n: 'b' }],
      [{ n: 'B ' }, { n: 'c' }],
      [{ n: 'c' }, { n: 'd' }],
    ]);
    expect(merged).toEqual([{ n: 'a' }, { n: 'b' }, { n: 'b' }, { n: 'c' }, { n: 'd' }]);
  });

  it('merges an item cut at a seam with its whole view in the next chunk, keeping the fuller', () => {
    const merged = mergeChunks([
      [
        { name: 'Tent', price: 120, link: 'https://shop.test/tent' },
        { name: 'Stove', price: null, link: null },
      ],
      [
        { name: 'Stove', price: 34.5, link: 'https://shop.test/stove' },
        { name: 'Lamp', price: 19, link: 'https://shop.test/lamp' },
      ],
    ]);
    expect(merged).toEqual([
      { name: 'Tent', price: 120, link: 'https://shop.test/tent' },
      { name: 'Stove', price: 34.5, link: 'https://shop.test/stove' },
      { name: 'Lamp', price: 19, link: 'https://shop.test/lamp' },
    ]);
  });

  it('merges a later partial view into the whole one, filling its gaps, and keeps the page order', () => {
    const merged = mergeChunks([
      [
        { name: 'Tent', price: 120, rating: null },
        { name: 'Stove', price: 34.5, rating: null },
      ],
      [
        { name: null, price: 34.5, rating: 4 },
        { name: 'Lamp', price: 19, rating: 3 },
      ],
    ]);
    expect(merged).toEqual([
      { name: 'Tent', price: 120, rating: null },
      { name: 'Stove', price: 34.5, rating: 4 },
      { name: 'Lamp', price: 19, rating: 3 },
    ]);
  });

  it('treats a shared URL as the same item even when a cut field disagrees', () => {
    const a = { name: 'Stove', description: 'Compact stove for', url: 'https://shop.test/stove' };
    const b = { name: 'Stove', description: 'Compact stove for two-day trips.', url: 'https://shop.test/stove' };
    expect(sameItem(a, b)).toBe(true);
    expect(mergeChunks([[a], [b]])).toEqual([b]);
  });

  it('keeps items apart that share nothing or disagree, and different URLs under one name', () => {
    expect(sameItem({ name: 'Tent', price: null }, { name: null, price: 34.5 })).toBe(false);
    expect(sameItem({ name: 'Tent', price: 120 }, { name: 'Tent', price: 99, url: null })).toBe(true);
    expect(
      sameItem({ name: 'Tent', url: 'https://shop.test/tent-2p' }, { name: 'Tent', url: 'https://shop.test/tent-3p' }),
    ).toBe(false);
    const merged = mergeChunks([[{ name: 'Tent', price: 120 }], [{ name: 'Stove', price: 120 }]]);
    expect(merged).toHaveLength(2);
  });

  it('cuts a list larger than a chunk at its lines, repeating the last lines in the next chunk', () => {
    const list = Array.from(
      { length: 20 },
      (_, i) => `${i + 1}. [Book ${i + 1}](https://b.test/${i + 1}) £${i + 1}.50`,
    );
    const chunks = chunkMarkdown(`# Books\n\n${list.join('\n')}`, 300, 100);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(300);
      // Whole lines only, one newline apart as in the page.
      for (const line of chunk.split('\n').filter((l) => /^\d+\./.test(l))) expect(list).toContain(line);
    }
    for (let i = 1; i < chunks.length; i++) {
      const lastLine = chunks[i - 1]?.split('\n').at(-1) as string;
      expect(chunks[i]?.split('\n')).toContain(lastLine);
    }
  });

  it('joins the two halves of an item cut where no overlap repeated it', () => {
    const merged = mergeChunks([
      [
        { title: 'Book 3', price: 3.5 },
        { title: 'Book 4', price: null },
      ],
      [
        { title: null, price: 4.5 },
        { title: 'Book 5', price: 5.5 },
      ],
    ]);
    expect(merged).toEqual([
      { title: 'Book 3', price: 3.5 },
      { title: 'Book 4', price: 4.5 },
      { title: 'Book 5', price: 5.5 },
    ]);
  });

  it('runs tasks with a concurrency limit and keeps input order', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 3, 2, 4], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await Promise.resolve();
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30, 20, 40]);
    expect(peak).toBe(2);
  });
});

describe('model answers', () => {
  it('parses items from fenced, prose-wrapped or bare-array answers', () => {
    expect(parseItems('{"items":[{"a":1}]}')).toEqual([{ a: 1 }]);
    expect(parseItems('Here you go:\n```json\n{"items":[{"a":2}]}\n```')).toEqual([{ a: 2 }]);
    expect(parseItems('[{"a":3}, 4]')).toEqual([{ a: 3 }]);
    expect(() => parseItems('no json')).toThrow(/without JSON/);
    expect(() => parseItems('{"rows":[]}')).toThrow(/no "items"/);
  });
});
