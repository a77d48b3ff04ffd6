/**
 * fast mode on every retrieve fixture page with a scripted model that answers as a model would:
 * relative URLs, prices as text, fields left out. The assertions are on the exact `data` returned.
 */
import {
  type FixtureSite,
  type ModelServer,
  type Reply,
  startFixtureSite,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { items, pageIn, postRetrieve, type RetrieveBody, retrievePage } from './retrieve-support';
import { startTestRelay, type TestRelay } from './support';

let site: FixtureSite;
let model: ModelServer;
let relay: TestRelay;

beforeAll(async () => {
  [site, model] = await Promise.all([startFixtureSite(), startModelServer({ models: ['fast-model'] })]);
  relay = await startTestRelay({
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-test',
    TANDEM_MODEL_FAST: 'fast-model',
    TANDEM_MODEL_MAX_RETRIES: 0,
  });
});
afterEach(async () => {
  await relay.services.sessions.closeAll();
  model.reset();
});
afterAll(async () => {
  await relay?.close();
  await Promise.all([site?.close(), model?.close()]);
});

const page = (name: string) => retrievePage(site, name);

/** A path as a model often copies it: the page's absolute URL without its origin. */
const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

async function retrieve(body: Record<string, unknown>): Promise<RetrieveBody> {
  const res = await postRetrieve(relay, { mode: 'fast', ...body });
  expect(res.message).toMatch(/fast mode, model fast-model/);
  return res;
}

describe('fast mode on each fixture page (scripted model)', () => {
  it('product grid: images and links made absolute, prices and ratings as numbers, missing fields null', async () => {
    model.script(
      items([
        {
          name: 'Trail Backpack 30L',
          price: '$89.99',
          image: '/img/backpack.jpg',
          link: 'item/trail-backpack',
          rating: '4.5 out of 5 stars',
        },
        { name: 'Compact Camp Stove', price: 34.5, image: '../img/stove.jpg', link: '/retrieve/item/camp-stove' },
        { name: 'LED Headlamp', price: '$19.00', image: null, link: './item/headlamp', rating: 3.5 },
      ]),
    );
    const res = await retrieve({
      url: page('products'),
      fields: ['name', 'price', 'image', 'link', 'rating'],
      cmd: 'Products with price as a number and rating as a number',
    });
    expect(res.data).toEqual([
      {
        name: 'Trail Backpack 30L',
        price: 89.99,
        image: `${site.url}/img/backpack.jpg`,
        link: `${site.url}/retrieve/item/trail-backpack`,
        rating: 4.5,
      },
      {
        name: 'Compact Camp Stove',
        price: 34.5,
        image: `${site.url}/img/stove.jpg`,
        link: `${site.url}/retrieve/item/camp-stove`,
        rating: null,
      },
      {
        name: 'LED Headlamp',
        price: 19,
        image: null,
        link: `${site.url}/retrieve/item/headlamp`,
        rating: 3.5,
      },
    ]);
  });

  it('table: integers from thousands separators, links absolute, a missing column null', async () => {
    model.script(
      items([
        { city: 'Stockholm', country: 'Sweden', population: '984,748', link: '/wiki/Stockholm' },
        { city: 'Oslo', population: 709037, link: '../wiki/Oslo' },
      ]),
    );
    const res = await retrieve({
      url: page('table'),
      fields: ['city', 'country', 'population', 'link'],
      cmd: 'Cities with population as an integer',
    });
    expect(res.data).toEqual([
      { city: 'Stockholm', country: 'Sweden', population: 984748, link: `${site.url}/wiki/Stockholm` },
      { city: 'Oslo', country: null, population: 709037, link: `${site.url}/wiki/Oslo` },
    ]);
  });

  it('search results: ISO dates, outside URLs kept, a query-only link resolved against the page', async () => {
    model.script(
      items([
        {
          title: 'Best climbing shoes of 2026',
          url: 'https://shoes.example.com/guide',
          date: 'Mar 3, 2026',
          snippet: 'We tested 40 pairs of climbing shoes on rock and plastic.',
        },
        { title: 'How should climbing shoes fit?', url: 'https://forum.example.org/t/sizing', date: '2026-01-12' },
        { title: 'Next', url: '?page=2', date: null, snippet: null },
      ]),
    );
    const res = await retrieve({
      url: page('search'),
      fields: ['title', 'url', 'date', 'snippet'],
      cmd: 'date as ISO',
    });
    expect(res.data).toEqual([
      {
        title: 'Best climbing shoes of 2026',
        url: 'https://shoes.example.com/guide',
        date: '2026-03-03',
        snippet: 'We tested 40 pairs of climbing shoes on rock and plastic.',
      },
      {
        title: 'How should climbing shoes fit?',
        url: 'https://forum.example.org/t/sizing',
        date: '2026-01-12',
        snippet: null,
      },
      { title: 'Next', url: `${page('search')}?page=2`, date: null, snippet: null },
    ]);
  });

  it('article: one item, date as ISO, the body the model left out null', async () => {
    model.script(
      items([
        { title: 'Glaciers are retreating faster than expected', author: 'Ingrid Halvorsen', date: '14 February 2026' },
      ]),
    );
    const res = await retrieve({
      url: page('article'),
      fields: ['title', 'author', 'date', 'body'],
      cmd: 'date as ISO',
    });
    expect(res.data).toEqual([
      {
        title: 'Glaciers are retreating faster than expected',
        author: 'Ingrid Halvorsen',
        date: '2026-02-14',
        body: null,
      },
    ]);
  });

  it('lazy list: the first batch without scroll_to_bottom, all 50 with it, in page order, with links', async () => {
    // Each post is a link beside a summary; the model reads the link's target from the Markdown and
    // gives it back relative, and leaves out every third summary.
    const posts: Reply = (request) =>
      items(
        [...pageIn(request).matchAll(/\[Post number (\d+)\]\(([^)]+)\)\n\n(Summary of post \d+\.)/g)].map((m) => ({
          title: `Post number ${m[1]}`,
          link: path(m[2] ?? ''),
          ...(Number(m[1]) % 3 === 0 ? {} : { summary: m[3] }),
        })),
      );
    const expected = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        title: `Post number ${i + 1}`,
        link: `${site.url}/retrieve/post/${i + 1}`,
        summary: (i + 1) % 3 === 0 ? null : `Summary of post ${i + 1}.`,
      }));
    model.script(posts, posts);
    const first = await retrieve({ url: page('lazy'), fields: ['title', 'link', 'summary'] });
    expect(first.data).toEqual(expected(10));
    const all = await retrieve({ url: page('lazy'), fields: ['title', 'link', 'summary'], scroll_to_bottom: true });
    expect(all.data).toEqual(expected(50));
  });

  it('viewport only: the listings on screen, prices as numbers', async () => {
    const listings: Reply = (request) =>
      items(
        [...pageIn(request).matchAll(/\[(Listing \d+)\]\(([^)]+)\)\s+(\$[\d.]+)/g)].map((m) => ({
          name: m[1],
          link: path(m[2] ?? ''),
          price: m[3],
        })),
      );
    model.script(listings);
    const res = await retrieve({
      url: page('viewport'),
      fields: ['name', 'link', 'price'],
      cmd: 'price as a number',
      full_page: false,
    });
    expect(res.data).toEqual(
      [1, 2, 3].map((n) => ({ name: `Listing ${n}`, link: `${site.url}/retrieve/listing/${n}`, price: 100 + n })),
    );
  });

  it('JSON-LD event: values from structured data typed, its relative ticket URL absolute', async () => {
    model.script(
      items([
        {
          name: 'Spring Jazz Night',
          date: '2026-04-18T20:00:00+02:00',
          location: 'Fixture Hall',
          price: '250',
          currency: 'NOK',
          tickets_url: '/tickets/jazz',
        },
      ]),
    );
    const res = await retrieve({
      url: page('jsonld'),
      fields: ['name', 'date', 'location', 'price', 'currency', 'tickets_url'],
      cmd: 'price as a number, date as ISO',
    });
    expect(res.data).toEqual([
      {
        name: 'Spring Jazz Night',
        date: '2026-04-18T20:00:00+02:00',
        location: 'Fixture Hall',
        price: 250,
        currency: 'NOK',
        tickets_url: `${site.url}/tickets/jazz`,
      },
    ]);
  });

  it('microdata: European prices as numbers, what the model left out null', async () => {
    model.script(
      items([
        { name: 'Ceramic Mug', brand: 'Potter & Co', price: '12,00 €', currency: 'EUR', sku: 'MUG-1' },
        { name: 'Teapot', brand: null, price: '39,50 €', currency: 'EUR', sku: 'POT-7' },
        { name: 'Saucer Set', price: 18.25, sku: 'SAU-3' },
      ]),
    );
    const res = await retrieve({
      url: page('microdata'),
      fields: ['name', 'brand', 'price', 'currency', 'sku'],
      cmd: 'price as a number',
    });
    expect(res.data).toEqual([
      { name: 'Ceramic Mug', brand: 'Potter & Co', price: 12, currency: 'EUR', sku: 'MUG-1' },
      { name: 'Teapot', brand: null, price: 39.5, currency: 'EUR', sku: 'POT-7' },
      { name: 'Saucer Set', brand: null, price: 18.25, currency: null, sku: 'SAU-3' },
    ]);
  });

  it('paginated: three pages in parallel, each in page order, links absolute', async () => {
    // Relative to the page ("book/7"), as a model reading "/retrieve/page-1.html" might write them.
    const books: Reply = (request) =>
      items(
        [...pageIn(request).matchAll(/\[Book (\d+)\]\([^)]+\)\s+Author \d+\s+(£[\d.]+)/g)].map((m) => ({
          title: `Book ${m[1]}`,
          link: `book/${m[1]}`,
          price: m[2],
        })),
      );
    model.script(books, books, books);
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        retrieve({ url: page(`page-${n}`), fields: ['title', 'link', 'price'], cmd: 'price as a number' }),
      ),
    );
    const expected = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        title: `Book ${from + i}`,
        link: `${site.url}/retrieve/book/${from + i}`,
        price: from + i + 0.5,
      }));
    expect(results.map((r) => r.data)).toEqual([expected(1, 12), expected(13, 12), expected(25, 5)]);
  });
});
