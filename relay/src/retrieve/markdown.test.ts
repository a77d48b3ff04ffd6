import type { ContentBlock, PageContent } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { itemsTable, mainContentMarkdown, modelMarkdown } from './markdown';

const block = (b: Partial<ContentBlock> & Pick<ContentBlock, 'kind' | 'text'>): ContentBlock => ({
  md: b.text,
  main: false,
  nav: false,
  ...b,
});

function page(blocks: ContentBlock[], has_main = true): PageContent {
  return {
    url: 'https://x.test/',
    title: 't',
    lang: 'en',
    blocks,
    links: [],
    images: [],
    tables: [],
    records: [],
    metadata: { meta: { 'og:title': 'OG title', 'fb:app_id': '1' }, json_ld: [], microdata: [] },
    has_main,
    full_page: true,
  };
}

describe('markdown', () => {
  it('renders items as a table, escaping pipes and showing nulls as empty', () => {
    expect(
      itemsTable(
        [
          { a: 'x|y', b: null },
          { a: 2, b: { c: 1 } },
        ],
        ['a', 'b'],
      ),
    ).toBe('| a | b |\n| --- | --- |\n| x\\|y |  |\n| 2 | {"c":1} |');
  });

  it('keeps the main region, and the whole body when the main region would lose a list', () => {
    const nav = block({ kind: 'text', text: 'Menu', nav: true });
    const main = block({ kind: 'heading', text: 'Title', md: '# Title', main: true });
    expect(mainContentMarkdown(page([nav, main])).markdown).toBe('# Title');
    const list = block({ kind: 'list', text: 'a\nb\nc', md: '- a\n- b\n- c' });
    expect(mainContentMarkdown(page([nav, main, list]))).toEqual({
      markdown: 'Menu\n\n# Title\n\n- a\n- b\n- c',
      whole: true,
    });
  });

  it('gives the model useful meta tags and no navigation', () => {
    const md = modelMarkdown(
      page([block({ kind: 'text', text: 'Menu', nav: true }), block({ kind: 'text', text: 'Body' })]),
    );
    expect(md).toBe('Page metadata:\n- og:title: OG title\n\nBody');
  });
});
