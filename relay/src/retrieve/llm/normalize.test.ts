import { describe, expect, it } from 'vitest';
import { normalizeItem } from './normalize';

const base = 'https://shop.test/catalog/list.html';
const known = new Set(['https://shop.test/catalog/item/x', 'https://shop.test/img/x.jpg']);

describe('normalizeItem', () => {
  it('fills every field and drops extras', () => {
    expect(normalizeItem({ name: 'x', extra: 1 }, ['name', 'price'], { base, known, types: {} })).toEqual({
      name: 'x',
      price: null,
    });
  });

  it('makes url and image fields absolute, whatever relative form the model used', () => {
    const item = normalizeItem(
      { link: 'item/x', next: '?page=2', image: '../img/x.jpg', url: '//cdn.test/a', home: 'www.shop.test/a' },
      ['link', 'next', 'image', 'url', 'home'],
      { base, known, types: { next: 'url', home: 'url' } },
    );
    expect(item).toEqual({
      link: 'https://shop.test/catalog/item/x',
      next: 'https://shop.test/catalog/list.html?page=2',
      image: 'https://shop.test/img/x.jpg',
      url: 'https://cdn.test/a',
      home: 'https://www.shop.test/a',
    });
  });

  it('leaves paths, text and absent references in other fields as they are', () => {
    const item = normalizeItem(
      { path: '/pets/{petId}', ratio: '1/2', note: 'see /docs for more', sku: 'A-1', link: 'N/A' },
      ['path', 'ratio', 'note', 'sku', 'link'],
      { base, known, types: {} },
    );
    expect(item).toEqual({ path: '/pets/{petId}', ratio: '1/2', note: 'see /docs for more', sku: 'A-1', link: 'N/A' });
  });

  it('makes a relative value of any field absolute when it resolves to one of the page’s links', () => {
    const item = normalizeItem({ details: 'item/x', other: '/catalog/item/y' }, ['details', 'other'], {
      base,
      known,
      types: {},
    });
    expect(item).toEqual({ details: 'https://shop.test/catalog/item/x', other: '/catalog/item/y' });
  });

  it('coerces to the types the cmd asks for', () => {
    const item = normalizeItem(
      { price: '$89.99', count: '1,204', date: 'March 3, 2026', stock: 'In stock', label: 42 },
      ['price', 'count', 'date', 'stock', 'label'],
      { base, known, types: { price: 'number', count: 'integer', date: 'date', stock: 'boolean', label: 'string' } },
    );
    expect(item).toEqual({ price: 89.99, count: 1204, date: '2026-03-03', stock: true, label: '42' });
    const unparseable = normalizeItem({ price: 'call us' }, ['price'], { base, known, types: { price: 'number' } });
    expect(unparseable).toEqual({ price: null });
  });
});
