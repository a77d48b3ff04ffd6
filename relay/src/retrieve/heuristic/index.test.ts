import type { ContentRecord, PageContent, RecordPart } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { extractHeuristic } from './index';

const part = (p: Partial<RecordPart> & Pick<RecordPart, 'kind'>): RecordPart => ({
  tag: 'span',
  hint: '',
  text: '',
  ...p,
});

function page(overrides: Partial<PageContent>): PageContent {
  return {
    url: 'https://shop.test/list',
    title: 'List',
    lang: 'en',
    blocks: [],
    links: [],
    images: [],
    tables: [],
    records: [],
    metadata: { meta: {}, json_ld: [], microdata: [] },
    has_main: false,
    full_page: true,
    ...overrides,
  };
}

const card = (name: string, price: string, extra: RecordPart[] = []): ContentRecord => ({
  text: `${name} ${price}`,
  data: { sku: `${name.toLowerCase()}-1` },
  parts: [
    part({ kind: 'link', tag: 'a', text: name, href: `https://shop.test/p/${name}`, heading: true }),
    part({ kind: 'text', hint: 'price', text: price }),
    ...extra,
  ],
});

describe('ludicrous extraction', () => {
  const records = page({
    records: [
      {
        signature: 'div.card',
        container: 'div.grid',
        in_nav: false,
        records: [
          card('Mug', '$12.00', [part({ kind: 'text', hint: 'color', text: 'Blue' })]),
          card('Pot', '$39.50'),
          card('Cup', '€8,25'),
        ],
      },
    ],
  });

  it('recognises names, links, prices and requested names from hints and data-*', () => {
    const { items, source } = extractHeuristic(records, '', ['name', 'url', 'price', 'currency', 'color', 'sku']);
    expect(source).toBe('records');
    expect(items).toEqual([
      { name: 'Mug', url: 'https://shop.test/p/Mug', price: 12, currency: 'USD', color: 'Blue', sku: 'mug-1' },
      { name: 'Pot', url: 'https://shop.test/p/Pot', price: 39.5, currency: 'USD', color: null, sku: 'pot-1' },
      { name: 'Cup', url: 'https://shop.test/p/Cup', price: 8.25, currency: 'EUR', color: null, sku: 'cup-1' },
    ]);
  });

  it('keeps the price text when the cmd asks for text', () => {
    const { items } = extractHeuristic(records, 'price as text', ['price']);
    expect(items[0]).toEqual({ price: '$12.00' });
  });

  it('maps a table by header and prefers it when it is the bigger list', () => {
    const table = page({
      tables: [
        {
          headers: ['Name', 'Score'],
          caption: '',
          rows: [
            [{ text: 'A', href: 'https://x.test/a' }, { text: '1' }],
            [{ text: 'B' }, { text: '2' }],
          ],
        },
      ],
    });
    expect(extractHeuristic(table, 'score as a number', undefined).items).toEqual([
      { name: 'A', url: 'https://x.test/a', score: 1 },
      { name: 'B', score: 2 },
    ]);
    expect(extractHeuristic(table, '', ['name', 'link']).items).toEqual([
      { name: 'A', link: 'https://x.test/a' },
      { name: 'B', link: null },
    ]);
  });

  it('gives a page with no list one item from JSON-LD first, then meta tags and visible text', () => {
    const article = page({
      url: 'https://news.test/a',
      metadata: {
        meta: { 'og:site_name': 'News', author: 'Meta Author' },
        json_ld: [{ '@type': 'NewsArticle', headline: 'LD headline', datePublished: '2026-01-02' }],
        microdata: [],
      },
      blocks: [
        { kind: 'heading', text: 'Visible headline', md: '# Visible headline', level: 1, main: true, nav: false },
        {
          kind: 'text',
          text: 'First paragraph of the story, long enough to count as text.',
          md: '',
          main: true,
          nav: false,
        },
      ],
    });
    const { items, source } = extractHeuristic(article, '', ['title', 'author', 'date', 'site_name', 'text']);
    expect(source).toBe('page');
    expect(items).toEqual([
      {
        title: 'LD headline',
        author: 'Meta Author',
        date: '2026-01-02',
        site_name: 'News',
        text: 'First paragraph of the story, long enough to count as text.',
      },
    ]);
  });

  it('fills what a list page keeps only in a Product[] JSON-LD block, matched by URL or name', () => {
    const shop = page({
      records: [
        {
          signature: 'li.tile',
          container: 'ul.tiles',
          in_nav: false,
          records: ['Mug', 'Pot', 'Cup'].map((name) => ({
            text: name,
            data: {},
            parts: [part({ kind: 'link', tag: 'a', text: name, href: `https://shop.test/p/${name}`, heading: true })],
          })),
        },
      ],
      metadata: {
        meta: {},
        json_ld: [
          {
            '@type': 'Product',
            name: 'Mug',
            url: '/p/Mug',
            sku: 'M1',
            offers: { price: '12.00', priceCurrency: 'USD' },
          },
          { '@type': 'Product', name: 'Pot', sku: 'P1', offers: [{ price: '39.5', priceCurrency: 'USD' }] },
        ],
        microdata: [],
      },
    });
    const { items, source } = extractHeuristic(shop, '', ['name', 'price', 'currency', 'sku']);
    // Two Product nodes make a list, not a product page.
    expect(source).toBe('records');
    expect(items).toEqual([
      { name: 'Mug', price: 12, currency: 'USD', sku: 'M1' },
      { name: 'Pot', price: 39.5, currency: 'USD', sku: 'P1' },
      { name: 'Cup', price: null, currency: null, sku: null },
    ]);
  });
});
