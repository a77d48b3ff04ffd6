import { describe, expect, it } from 'vitest';
import { htmlText, markdownText, meanAndP25, sameText, tokenF1, words } from './text';

describe('article text metrics', () => {
  it('splits words on anything but letters and digits, after NFKC and lower case', () => {
    expect(words('Ｈello, WORLD—42 times; naïve café')).toEqual(['hello', 'world', '42', 'times', 'naïve', 'café']);
    expect(words('DeepMind新电脑')).toEqual(['deepmind新电脑']);
  });

  it('scores token F1 on word multisets', () => {
    expect(tokenF1(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(tokenF1(['a', 'a'], ['a'])).toBeCloseTo(2 / 3);
    expect(tokenF1([], [])).toBe(1);
    expect(tokenF1(['a'], [])).toBe(0);
  });

  it('counts a title with or without a short site suffix, and a missing byline only when none was expected', () => {
    expect(
      sameText('Get your Frontend JavaScript Code Covered', 'Get your Frontend JavaScript Code Covered | Code'),
    ).toBe(true);
    expect(sameText('Lorem', 'Lorem ipsum dolor sit amet')).toBe(false);
    expect(sameText('By Steven Mufson', 'Steven Mufson')).toBe(true);
    expect(sameText(null, null)).toBe(true);
    expect(sameText('Someone', null)).toBe(false);
    expect(sameText(42, 'Someone')).toBe(false);
  });

  it('reads the text of serialized HTML and the words of Markdown without link targets', () => {
    expect(
      words(
        htmlText(
          '<p>Fish &amp; chips&#160;<b>&quot;hot&quot;</b></p><script>var x = "<p>no</p>";</script><!-- hidden -->',
        ),
      ),
    ).toEqual(['fish', 'chips', 'hot']);
    expect(words(markdownText('See [the docs](https://example.com/a-b) and ![a cat](/cat.png).'))).toEqual([
      'see',
      'the',
      'docs',
      'and',
      'a',
      'cat',
    ]);
  });

  it('reads long hostile input in linear time', () => {
    const hostile = `${'<script>'.repeat(50_000)}${'<!--'.repeat(50_000)}${'](('.repeat(100_000)}`;
    const t = performance.now();
    htmlText(hostile);
    markdownText(hostile);
    expect(performance.now() - t).toBeLessThan(2_000);
  });

  it('gives the mean and 25th percentile', () => {
    expect(meanAndP25([1, 0.5, 0.75, 0.25])).toEqual({ mean: 0.625, p25: 0.25 });
  });
});
