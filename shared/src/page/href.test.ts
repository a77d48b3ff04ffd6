import { describe, expect, it } from 'vitest';
import { showsTarget } from './href';

describe('showsTarget', () => {
  it.each([
    ['/news/world', true, false, false],
    ['https://www.example.com', true, false, false],
    ['https://www.example.com/', true, false, false],
    ['https://example.com/a/story.12345', true, false, false],
    ['/about.html?x=1', true, false, false],
    ['/index.php', true, false, false],
    ['javascript:', true, false, false],
    ['javascript:', false, false, false],
    ['/news/world', false, false, true],
    ['/export', true, true, true],
    ['/files/report.PDF', true, false, true],
    ['https://cdn.example.com/pkg/tool-1.2.tar.gz#sha', true, false, true],
    ['/a/b.c/page', true, false, false],
    ['mailto:help@example.com', true, false, true],
    ['tel:+15550100', true, false, true],
  ])('%s (named %s, download %s): %s', (href, named, download, shown) => {
    expect(showsTarget(href, named, download)).toBe(shown);
  });
});
