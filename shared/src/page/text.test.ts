import { describe, expect, it } from 'vitest';
import { shortenHref } from './href';
import { capText, collapseWhitespace, quoteValue } from './text';

describe('text helpers', () => {
  it('collapses whitespace runs, including non-breaking spaces, and trims', () => {
    expect(collapseWhitespace('  Sign\n\t in\u00a0 now  ')).toBe('Sign in now');
  });

  it('caps text with an ellipsis that counts toward the cap', () => {
    expect(capText('a'.repeat(150), 100)).toHaveLength(100);
    expect(capText('a'.repeat(150), 100).endsWith('…')).toBe(true);
    expect(capText('short', 100)).toBe('short');
  });

  it('quotes attribute values only when they need it', () => {
    expect(quoteValue('email')).toBe('email');
    expect(quoteValue('')).toBe('""');
    expect(quoteValue('Your name')).toBe('"Your name"');
    expect(quoteValue('say "hi"')).toBe('"say \\"hi\\""');
  });

  it('shortens same-origin links to their path and hides javascript: code', () => {
    expect(shortenHref('http://a.test/x?y=1', 'http://a.test')).toBe('/x?y=1');
    expect(shortenHref('http://b.test/x', 'http://a.test')).toBe('http://b.test/x');
    expect(shortenHref('JavaScript:alert(1)', 'http://a.test')).toBe('javascript:');
  });
});
