import { describe, expect, it } from 'vitest';
import { currencyOf, parseDate, parseNumber, parsePrice, parseRating } from './values';

describe('values', () => {
  it('reads numbers in either decimal convention', () => {
    expect(parseNumber('$1,249.00')).toBe(1249);
    expect(parseNumber('1.249,50 €')).toBe(1249.5);
    expect(parseNumber('12,00 €')).toBe(12);
    expect(parseNumber('984,748')).toBe(984748);
    expect(parseNumber('no digits')).toBeNull();
  });

  it('reads prices with their currency', () => {
    expect(parsePrice('$89.99')).toEqual({ amount: 89.99, currency: 'USD' });
    expect(parsePrice('£3.50')).toEqual({ amount: 3.5, currency: 'GBP' });
    expect(parsePrice('250 NOK')).toEqual({ amount: 250, currency: 'NOK' });
    expect(currencyOf('about 12')).toBeNull();
  });

  it('turns dates into ISO', () => {
    expect(parseDate('Mar 3, 2026 — text')).toBe('2026-03-03');
    expect(parseDate('14 February 2026')).toBe('2026-02-14');
    expect(parseDate('posted 2026-01-05')).toBe('2026-01-05');
    expect(parseDate('2026-02-14T09:30:00Z')).toBe('2026-02-14T09:30:00Z');
    expect(parseDate('12/31/2025')).toBe('2025-12-31');
    expect(parseDate('31.12.2025')).toBe('2025-12-31');
    expect(parseDate('Call 555-1234')).toBeNull();
  });

  it('reads ratings from labels, fractions and stars', () => {
    expect(parseRating('4.5 out of 5 stars')).toBe(4.5);
    expect(parseRating('Rated 4/5')).toBe(4);
    expect(parseRating('★★★½☆')).toBe(3.5);
    expect(parseRating('(4.2)')).toBe(4.2);
    expect(parseRating('great')).toBeNull();
  });
});
