import { describe, expect, it } from 'vitest';
import { fitToBudget, GAP, type Line, LONG_LINE } from './text-budget';

const line = (text: string, kind: Line['kind'] = 'text', in_viewport = true): Line => ({ text, kind, in_viewport });

describe('fitToBudget', () => {
  it('returns the text untouched when it fits', () => {
    const out = fitToBudget([line('a'), line('[1]<button>b</>', 'element')], 100);
    expect(out).toEqual({ text: 'a\n[1]<button>b</>', truncated: false, omitted_chars: 0 });
  });

  it('drops text far from elements before text next to them, and keeps every element', () => {
    const lines = [
      line('intro '.repeat(20)),
      line('far away prose '.repeat(10)),
      line('label next to the button'),
      line('[1]<button>Go</>', 'element'),
      line('more far away prose '.repeat(10)),
    ];
    const out = fitToBudget(lines, 260);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(260);
    expect(out.text).toContain('[1]<button>Go</>');
    expect(out.text).toContain('label next to the button');
    expect(out.text).not.toContain('more far away prose');
    expect(out.text).toMatch(/characters of page text left out to fit the 260-character budget/);
  });

  it('drops text outside the viewport before text inside it', () => {
    const lines = [line('inside the viewport '.repeat(8)), line('outside the viewport '.repeat(8), 'text', false)];
    const out = fitToBudget(lines, 300);
    expect(out.truncated).toBe(true);
    expect(out.text).toContain('inside the viewport');
    expect(out.text).not.toContain('outside the viewport');
  });

  it('shortens very long text lines before dropping any line', () => {
    const lines = [line('x'.repeat(2000)), line('[1]<a>Next</>', 'element')];
    const out = fitToBudget(lines, 600);
    expect(out.text).toContain(`${'x'.repeat(LONG_LINE - 1)}…`);
    expect(out.text).toContain('[1]<a>Next</>');
  });

  it('leaves one gap marker per run of dropped lines and never drops markers', () => {
    const lines = [
      line('[top of page]', 'marker'),
      ...Array.from({ length: 50 }, (_, i) => line(`filler ${i} `.repeat(5))),
      line('[end of page]', 'marker'),
    ];
    const out = fitToBudget(lines, 300);
    expect(out.text.startsWith('[top of page]')).toBe(true);
    expect(out.text).toContain('[end of page]');
    expect(out.text.split('\n').filter((l) => l === GAP).length).toBeLessThanOrEqual(2);
  });
});
