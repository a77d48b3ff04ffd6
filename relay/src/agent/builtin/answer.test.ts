import { describe, expect, it } from 'vitest';
import { answerQuestion, questionParts } from './answer';
import { page } from './fake-page';

const shop = page(
  [],
  [
    '[top of page]',
    '# Featured products',
    '## [1]<a>Acme Kettle</>',
    'Boils a litre in ninety seconds.',
    '$39.00 · rated 4.5 of 5',
    '## [3]<a>Bolt Drill</>',
    'Cordless, two batteries included.',
    '$89.99 · rated 4.2 of 5',
    'Capacity: 1.7 litres. Power: 2200 W.',
    '[end of page]',
  ].join('\n'),
);
const table = page(
  [],
  ['Product | Category | Price | Stock', 'Acme Kettle | Kitchen | $39.00 | 12', 'Bolt Saw | Tools | $119.00 | 7'].join(
    '\n',
  ),
);

describe('questionParts', () => {
  it.each([
    ['what is the price of the Bolt Drill', { attribute: 'price', subject: 'Bolt Drill' }],
    ['How much does the kettle cost', { attribute: 'price', subject: 'kettle' }],
    ['how much is the Bolt Drill', { attribute: 'price', subject: 'Bolt Drill' }],
    ["what's the rating of Calm Lamp", { attribute: 'rating', subject: 'Calm Lamp' }],
    ["what is the Bolt Drill's rating", { attribute: 'rating', subject: 'Bolt Drill' }],
    ['how many Bolt Saws are in stock', { attribute: 'stock', subject: 'Bolt Saws' }],
    ['tell me the power', { subject: 'power' }],
  ])('%s', (question, parts) => {
    expect(questionParts(question)).toEqual(parts);
  });
});

describe('answerQuestion', () => {
  it('finds a price near the product it names', () => {
    expect(answerQuestion('what is the price of the Bolt Drill?', shop)).toContain('$89.99');
    expect(answerQuestion('how much is the Acme Kettle', shop)).toContain('$39.00');
  });

  it('finds a labelled value or the segment that mentions the attribute', () => {
    expect(answerQuestion('what is the power of the Bolt Drill', shop)).toContain('2200 W');
    expect(answerQuestion('what is the rating of Acme Kettle', shop)).toContain('rated 4.5 of 5');
  });

  it('reads a table cell by row and column', () => {
    expect(answerQuestion('how many Bolt Saws are in stock?', table)).toContain('7');
    expect(answerQuestion('what is the price of Acme Kettle', table)).toContain('$39.00');
  });

  it('answers every subject of "X and Y"', () => {
    const answer = answerQuestion('what is the price of Acme Kettle and Bolt Drill', shop);
    expect(answer).toContain('$39.00');
    expect(answer).toContain('$89.99');
  });

  it('says nothing when the page does not say', () => {
    expect(answerQuestion('what is the price of the Purple Unicorn', shop)).toBeUndefined();
  });
});

describe('answers in plain words', () => {
  const article = page(
    [],
    [
      '[top of page]',
      '# Tides of the North Sea',
      'By A. Writer',
      '## Why tides happen',
      '- The moon pulls the water',
      '- The sun pulls it **less**',
      'Month | High tide | Low tide',
      'March | 4.1 m | 0.3 m',
      '[end of page]',
    ].join('\n'),
    { title: 'Tides – Ocean Weekly' },
  );

  it('answers "the main heading" with the top heading, not the title', () => {
    expect(answerQuestion('what is the main heading', article)).toBe('The main heading is "Tides of the North Sea".');
    expect(answerQuestion('what is the headline?', article)).toBe('The main heading is "Tides of the North Sea".');
    expect(answerQuestion('what is the title of the page', article)).toBe('The page is titled "Tides – Ocean Weekly".');
  });

  it('leaves the snapshot’s heading marks, bullets, emphasis and cell bars out of an answer', () => {
    const answer = answerQuestion('what is Why tides happen?', article) ?? '';
    expect(answer).toContain('The moon pulls the water');
    expect(answer).not.toMatch(/#|\*\*|(^|\s)- |\|/);
  });
});
