import { describe, expect, it } from 'vitest';
import { typeHints } from './hints';
import { normalizeName, roleOf } from './roles';

describe('type hints from the cmd', () => {
  it('finds "<field> as <type>" and similar phrasings', () => {
    expect(typeHints('Get products with price as a number and date as ISO', ['name', 'price', 'date'])).toEqual({
      price: 'number',
      date: 'date',
    });
    expect(
      typeHints('release_date (ISO 8601), stock: integer, url as absolute URL', ['release_date', 'stock', 'url']),
    ).toEqual({
      release_date: 'date',
      stock: 'integer',
      url: 'url',
    });
    expect(typeHints('prices in text please', ['price'])).toEqual({ price: 'string' });
    expect(typeHints('', ['price'])).toEqual({});
  });
});

describe('roles of field names', () => {
  it('maps names and their variants to roles', () => {
    expect(normalizeName('imageUrl')).toBe('image url');
    expect(roleOf('Product_URL')).toBe('url');
    expect(roleOf('title')).toBe('name');
    expect(roleOf('cover image')).toBe('image');
    expect(roleOf('release-date')).toBe('date');
    expect(roleOf('snippet')).toBe('description');
    expect(roleOf('sku')).toBeNull();
  });
});
