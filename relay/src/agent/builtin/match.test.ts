import { describe, expect, it } from 'vitest';
import { el, page } from './fake-page';
import { findElement } from './match';
import { textScore } from './text';

describe('textScore', () => {
  it('scores the same words 1 and ignores case, punctuation and articles', () => {
    expect(textScore('the Sign-In button!', 'sign in button')).toBe(1);
    expect(textScore('Send', 'send')).toBe(1);
    // Words of any script, and symbols people name buttons by, are words too.
    expect(textScore('ヘルプ', 'ヘルプ')).toBe(1);
    expect(textScore('ヘルプ', '送信')).toBe(0);
    expect(textScore('♥♥♥', '♥♥♥')).toBe(1);
  });

  it('folds log in / sign in / login together', () => {
    expect(textScore('log in', 'Sign in')).toBe(1);
  });

  it('tolerates plurals, prefixes and typos', () => {
    expect(textScore('reviews', 'Review')).toBeGreaterThan(0.9);
    expect(textScore('specs', 'Specifications')).toBeGreaterThan(0.6);
    expect(textScore('newsleter', 'newsletter')).toBeGreaterThan(0.7);
  });

  it('needs the numbers the user gave', () => {
    expect(textScore('Mark section 5 as read', 'Mark section 1 as read')).toBeLessThan(0.5);
    expect(textScore('Track order 1004', 'Track order 1004')).toBe(1);
  });

  it('ranks the exact phrase above the same words in another order', () => {
    expect(textScore('high to low', 'Price: high to low')).toBeGreaterThan(
      textScore('high to low', 'Price: low to high'),
    );
  });
});

describe('findElement', () => {
  const snap = page([
    el(1, 'a', 'Home'),
    el(2, 'input', 'Email address', { attributes: { type: 'email', name: 'email', placeholder: 'you@example.com' } }),
    el(3, 'input', '', { attributes: { type: 'text', name: 'q', placeholder: 'Search products' } }),
    el(4, 'button', 'Add to cart', { box: { x: 20, y: 300, width: 100, height: 30 } }),
    el(5, 'button', 'Add to cart', { box: { x: 20, y: 600, width: 100, height: 30 } }),
    el(6, 'button', 'Delete', { states: { disabled: true } }),
    el(7, 'a', 'Delete my account'),
    el(8, 'button', '', { attributes: { 'aria-label': 'Close dialog', title: 'Close' } }),
    el(9, 'a', 'Pricing', { in_viewport: false }),
    el(10, 'button', 'Pricing'),
  ]);

  it('matches labels, placeholders, aria-labels and titles', () => {
    expect(findElement(snap, { text: 'email' })?.element.index).toBe(2);
    expect(findElement(snap, { text: 'search products' })?.element.index).toBe(3);
    expect(findElement(snap, { text: 'close dialog' })?.element.index).toBe(8);
  });

  it('returns nothing when nothing is close enough', () => {
    expect(findElement(snap, { text: 'purple unicorn' })).toBeUndefined();
  });

  it('prefers enabled elements', () => {
    expect(findElement(snap, { text: 'delete' })?.element.index).toBe(7);
  });

  it('prefers the kind the user named', () => {
    expect(findElement(snap, { text: 'pricing', kind: 'link' })?.element.index).toBe(9);
    expect(findElement(snap, { text: 'pricing', kind: 'button' })?.element.index).toBe(10);
  });

  it('breaks ties by visibility, then by nearness to the last action', () => {
    expect(findElement(snap, { text: 'pricing' })?.element.index).toBe(10);
    expect(findElement(snap, { text: 'add to cart' }, { anchor: { x: 20, y: 620 } })?.element.index).toBe(5);
    expect(findElement(snap, { text: 'add to cart' }, { anchor: { x: 20, y: 280 } })?.element.index).toBe(4);
  });

  it('counts ordinals in page order', () => {
    expect(findElement(snap, { text: 'add to cart', ordinal: 2 })?.element.index).toBe(5);
    expect(findElement(snap, { text: '', kind: 'link', ordinal: -1 })?.element.index).toBe(9);
  });

  it('steers away from an element that failed before', () => {
    expect(findElement(snap, { text: 'add to cart' }, { avoid: ['button|Add to cart'] })?.element.index).toBe(4);
  });
});
