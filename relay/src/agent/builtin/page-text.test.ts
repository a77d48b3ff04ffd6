import { describe, expect, it } from 'vitest';
import { readableLines } from './page-text';

describe('readableLines', () => {
  it('keeps an element’s text and drops its markup, quoted attribute values included', () => {
    const text = [
      '[top of page]',
      '# [1]<a title="Tools > Drills">Bolt Drill</> in stock',
      'Search [2]<input placeholder=Search> [3]<button aria-label="Run the \\"search\\"">Go</>',
      '*[4]<a href=/manual.pdf>Manual</> [5]<a href=mailto:help@example.com>',
      '[end of page]',
    ].join('\n');
    expect(readableLines(text)).toEqual(['# Bolt Drill in stock', 'Search Go', 'Manual']);
  });
});
