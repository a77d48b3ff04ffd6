/** Markdown renderings: the page's content (for the model and for format: markdown) and a table of items. Pure. */
import type { ContentBlock, ContentTable, PageContent } from '@tandem/shared';
import { articleMeta, articleNode, isArticleNode } from './heuristic/article-meta';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function tableMarkdown(table: ContentTable): string {
  const width = Math.max(table.headers.length, ...table.rows.map((r) => r.length), 1);
  const headers = Array.from({ length: width }, (_, i) => table.headers[i] ?? '');
  const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const lines = [
    ...(table.caption ? [`**${table.caption}**`, ''] : []),
    row(headers),
    `|${headers.map(() => ' --- ').join('|')}|`,
    ...table.rows.map((r) =>
      row(
        Array.from({ length: width }, (_, i) => {
          const c = r[i];
          if (!c) return '';
          if (c.href && c.text) return `[${c.text}](${c.href})`;
          return c.text || (c.src ? `![](${c.src})` : '');
        }),
      ),
    ),
  ];
  return lines.join('\n');
}

export function blockMarkdown(block: ContentBlock, content: PageContent): string {
  if (block.kind === 'table') {
    const table = content.tables[block.table ?? -1];
    return table ? tableMarkdown(table) : '';
  }
  return block.md || block.text;
}

export function blocksMarkdown(blocks: ContentBlock[], content: PageContent): string {
  return blocks
    .map((b) => blockMarkdown(b, content))
    .filter((s) => s !== '')
    .join('\n\n');
}

const META_FOR_MODEL = /^(og:|article:|product:|twitter:title|description$|author$|keywords$|date$)/;
const MAX_STRUCTURED_CHARS = 6_000;

/** Metadata the page carries outside its visible text: meta tags, JSON-LD, microdata. */
function metadataMarkdown(content: PageContent): string {
  const { meta, json_ld, microdata } = content.metadata;
  const lines = Object.entries(meta)
    .filter(([key]) => META_FOR_MODEL.test(key))
    .map(([key, value]) => `- ${key}: ${value}`);
  const structured = [...json_ld, ...microdata.filter((m) => Object.keys(m.properties).length > 0)];
  if (structured.length > 0) {
    const json = JSON.stringify(structured);
    lines.push(
      `- structured data: ${json.length > MAX_STRUCTURED_CHARS ? `${json.slice(0, MAX_STRUCTURED_CHARS)}…` : json}`,
    );
  }
  return lines.length > 0 ? `Page metadata:\n${lines.join('\n')}` : '';
}

/** The page for the model: metadata, then every block outside navigation (or all blocks when that is nothing). */
export function modelMarkdown(content: PageContent): string {
  const body = content.blocks.filter((b) => !b.nav);
  const metadata = metadataMarkdown(content);
  const markdown = blocksMarkdown(body.length > 0 ? body : content.blocks, content);
  return metadata ? `${metadata}\n\n${markdown}` : markdown;
}

/** Blocks that carry list data: tables, lists of three or more items. */
function listData(block: ContentBlock): boolean {
  return block.kind === 'table' || (block.kind === 'list' && block.text.split('\n').length >= 3);
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Whether a heading repeats the title (most of its words and most of the title's). */
function repeatsTitle(heading: string, title: string): boolean {
  const a = words(heading);
  const b = new Set(words(title));
  if (a.length === 0 || b.size === 0) return false;
  const shared = a.filter((w) => b.has(w)).length;
  return shared / a.length >= 0.75 && shared / b.size >= 0.75;
}

/** Characters of a record group's text: how much of the page a list takes. */
const groupChars = (group: PageContent['records'][number]) => group.records.reduce((n, r) => n + r.text.length, 0);

/** An article body shorter than this (characters) is probably not the article. */
const ARTICLE_MIN_CHARS = 500;

/** The page says it is an article: an Article JSON-LD node, og:type article, a publication time. */
function declaresArticle(content: PageContent): boolean {
  const meta = content.metadata.meta;
  return (
    isArticleNode(articleNode(content)) ||
    /article/i.test(meta['og:type'] ?? '') ||
    meta['article:published_time'] !== undefined
  );
}

/**
 * An article page's body as Markdown: its title as a heading, then the blocks the page runtime scored
 * as the article (navigation, sharing bars, comments and other boilerplate left out). Null when the
 * page does not read as an article, or when a list outside it holds more text than it and the page
 * does not say it is an article (a list page with some prose).
 */
export function articleMarkdown(content: PageContent): string | null {
  const article = content.article;
  const declared = article?.marked === true || declaresArticle(content);
  if (!article || !(article.readerable || (declared && article.chars >= ARTICLE_MIN_CHARS))) return null;
  const body = content.blocks.filter((b) => b.article && !b.nav);
  if (body.length === 0) return null;
  const listOutside = content.records.some(
    (g) => !g.in_nav && !g.in_article && g.records.length >= 3 && groupChars(g) > article.chars,
  );
  if (listOutside && !declared) return null;
  const title = articleMeta(content).title;
  const duplicate = title
    ? body.findIndex((b) => b.kind === 'heading' && (b.level ?? 2) <= 2 && repeatsTitle(b.text, title))
    : -1;
  const blocks = duplicate >= 0 ? body.filter((_, i) => i !== duplicate) : body;
  return [title ? `# ${title}` : '', blocksMarkdown(blocks, content)].filter(Boolean).join('\n\n');
}

/**
 * The page's main content: the article body when the page reads as one; else the main region (main,
 * [role=main], a lone article), else everything but navigation. Falls back to the whole body when the
 * main region would drop list data kept outside it.
 */
export function mainContentMarkdown(content: PageContent): { markdown: string; whole: boolean } {
  const article = articleMarkdown(content);
  if (article !== null) return { markdown: article, whole: false };
  const main = content.blocks.filter((b) => b.main && !b.nav);
  const lost = content.blocks.some((b) => !b.main && !b.nav && listData(b));
  const recordsOutside =
    content.has_main && content.records.some((g) => !g.in_nav) && !main.some(listData) && main.length < 3;
  if (main.length === 0 || lost || recordsOutside)
    return { markdown: blocksMarkdown(content.blocks, content), whole: true };
  return { markdown: blocksMarkdown(main, content), whole: false };
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The items as a Markdown table with the given columns. */
export function itemsTable(items: Record<string, unknown>[], columns: string[]): string {
  const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [
    row(columns),
    `|${columns.map(() => ' --- ').join('|')}|`,
    ...items.map((item) => row(columns.map((c) => valueText(item[c])))),
  ].join('\n');
}
