import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postRetrieve, type RetrieveBody, retrievePage } from './retrieve-support';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let relay: TestRelay;

beforeAll(async () => {
  site = await startFixtureSite();
  relay = await startTestRelay();
});
afterEach(async () => {
  await relay.services.sessions.closeAll();
});
afterAll(async () => {
  await relay?.close();
  await site?.close();
});

const page = (name: string) => retrievePage(site, name);
const retrieve = (body: Record<string, unknown>, on: TestRelay = relay): Promise<RetrieveBody> =>
  postRetrieve(on, { mode: 'ludicrous', ...body });

describe('max_items', () => {
  it('0 returns no items, with CONTINUE when the page has some', async () => {
    const res = await retrieve({ url: page('products'), max_items: 0 });
    expect(res.data).toEqual([]);
    expect(res.status).toBe('CONTINUE');
    expect(res.message).toMatch(/^Retrieved 0 items of 6 \(max_items 0; more remain\)/);
  });

  it('a fraction keeps its whole part, and the message quotes the value sent', async () => {
    const res = await retrieve({ url: page('products'), fields: ['name'], max_items: 2.5 });
    expect(res.data).toEqual([{ name: 'Trail Backpack 30L' }, { name: 'Compact Camp Stove' }]);
    expect(res.status).toBe('CONTINUE');
    expect(res.message).toMatch(/^Retrieved 2 items of 6 \(max_items 2\.5; more remain\)/);
  });

  it('defaults to 100: a 200-item page gives the first 100 and CONTINUE', async () => {
    const res = await retrieve({ url: page('catalog-200'), fields: ['name'] });
    expect(res.data).toHaveLength(100);
    expect(res.data[99]).toEqual({ name: 'Catalog item 100' });
    expect(res.status).toBe('CONTINUE');
    expect(res.message).toMatch(/^Retrieved 100 items of 200 \(max_items 100; more remain\)/);
  });

  it('fields: [] is the same as no fields: the columns are chosen from the page', async () => {
    const [empty, none] = await Promise.all([
      retrieve({ url: page('products'), fields: [] }),
      retrieve({ url: page('products') }),
    ]);
    expect(Object.keys(empty.data[0] ?? {})).toEqual(['name', 'url', 'image', 'price', 'currency', 'rating']);
    expect(empty.data).toEqual(none.data);
  });
});

describe('scroll_to_bottom', () => {
  it('stops at its 5 s limit on a page that never ends, and says so', async () => {
    const res = await retrieve({ url: page('endless'), fields: ['title'], scroll_to_bottom: true, max_items: 10_000 });
    // More than the first batch of 10: the scrolling loaded more before the limit stopped it.
    expect(res.data.length).toBeGreaterThan(10);
    expect(res.data.slice(0, 3)).toEqual([
      { title: 'Post number 1' },
      { title: 'Post number 2' },
      { title: 'Post number 3' },
    ]);
    const reported = /still growing at the 5 s scroll limit \(scrolled for (\d+) ms\)/.exec(res.message);
    expect(reported, res.message).not.toBeNull();
    // The runtime's own figure: the whole limit (it was still growing), and far from unbounded.
    const ms = Number(reported?.[1]);
    expect(ms).toBeGreaterThanOrEqual(5_000);
    expect(ms).toBeLessThan(15_000);
  });

  it('reports reaching the bottom of a page that ends', async () => {
    const res = await retrieve({ url: page('lazy'), scroll_to_bottom: true });
    expect(res.data).toHaveLength(50);
    expect(res.message).toMatch(/scroll_to_bottom: reached the bottom \(scrolled for \d+ ms, limit 5 s\)/);
  });
});

describe('the one Chromium', () => {
  it('parallel paginated calls on a fresh relay launch one browser between them', async () => {
    const fresh = await startTestRelay();
    try {
      expect(fresh.services.browsers.starts).toBe(0);
      const results = await Promise.all(
        [1, 2, 3].map((n) => retrieve({ url: page(`page-${n}`), fields: ['title'] }, fresh)),
      );
      expect(results.map((r) => r.data.length)).toEqual([12, 12, 5]);
      expect(new Set(results.map((r) => r.session_id)).size).toBe(3);
      expect(fresh.services.browsers.starts).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});
