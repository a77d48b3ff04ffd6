import { describe, expect, it } from 'vitest';
import { chunkMarkdown, mapLimit, mergeChunks } from './chunks';
import { normalizeItem, parseItems } from './extract';

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

  it('fills every field, drops extras and makes relative URLs absolute', () => {
    expect(
      normalizeItem({ name: 'x', link: '/p/1', extra: 1 }, ['name', 'link', 'price'], 'https://shop.test/list'),
    ).toEqual({
      name: 'x',
      link: 'https://shop.test/p/1',
      price: null,
    });
  });
});
