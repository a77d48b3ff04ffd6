/**
 * The content model for retrieve (DESIGN §3): what the page runtime's `contentJson` returns. Zod
 * schemas for whoever carries or validates it; the runtime imports them only as types.
 */
import { z } from 'zod';

export const ContentOptions = z
  .object({
    full_page: z.boolean().default(true).describe('false keeps only what is inside the viewport.'),
    render_js: z
      .boolean()
      .default(false)
      .describe('Also take ARIA labels and titles as text where an element has none.'),
    max_records: z.int().min(1).default(2000).describe('Cap on records per repeated-record group.'),
  })
  .meta({ id: 'ContentOptions' });
export type ContentOptions = z.infer<typeof ContentOptions>;

export const ContentLink = z.object({
  text: z.string().describe('Link text (or its aria-label/title/image alt when it has none).'),
  href: z.string().describe('Absolute URL.'),
});
export type ContentLink = z.infer<typeof ContentLink>;

export const ContentImage = z.object({
  src: z.string().describe('Absolute URL; lazy sources (data-src, srcset) resolved.'),
  alt: z.string().describe('Alt text, "" when none.'),
  lazy: z.boolean().describe('The source came from a lazy-loading attribute or loading=lazy.'),
});
export type ContentImage = z.infer<typeof ContentImage>;

export const TableCell = z.object({
  text: z.string(),
  href: z.string().optional().describe('First link in the cell, absolute.'),
  src: z.string().optional().describe('First image in the cell, absolute.'),
});
export type TableCell = z.infer<typeof TableCell>;

export const ContentTable = z.object({
  headers: z
    .array(z.string())
    .describe('Column names from <thead>, a first row of <th>, or a first row of bold <td>s; "" where none.'),
  rows: z.array(z.array(TableCell)).describe('Body rows, cells in column order.'),
  caption: z.string().describe('Caption, "" when none.'),
  heading: z
    .string()
    .optional()
    .describe('What the page calls the table: caption, label, or the nearest heading above.'),
});
export type ContentTable = z.infer<typeof ContentTable>;

/** One piece of a record: a text leaf, a link, an image, a time or an itemprop, with the hints naming it. */
export const RecordPart = z.object({
  kind: z.enum(['text', 'link', 'image', 'time', 'meta']),
  tag: z.string(),
  hint: z
    .string()
    .describe('Lower-case class, id, itemprop, name, data-* keys and aria-label of the element and its parent.'),
  text: z.string(),
  href: z.string().optional(),
  src: z.string().optional(),
  alt: z.string().optional(),
  datetime: z.string().optional().describe('<time datetime> or a content/value attribute.'),
  itemprop: z.string().optional(),
  label: z
    .string()
    .optional()
    .describe('aria-label or title, else the label text just before it in the record ("Venue:" names the next part).'),
  heading: z
    .boolean()
    .optional()
    .describe('The part is or sits in a heading element, or is the bold words that open the record (its title).'),
  within: z.string().optional().describe('The dt, dd, label, figcaption or th the part sits in, inside its record.'),
});
export type RecordPart = z.infer<typeof RecordPart>;

export const ContentRecord = z.object({
  text: z.string().describe('All visible text of the record, collapsed.'),
  parts: z.array(RecordPart),
  itemtype: z.string().optional(),
  data: z.record(z.string(), z.string()).describe('data-* attributes of the record element.'),
});
export type ContentRecord = z.infer<typeof ContentRecord>;

export const RecordGroup = z.object({
  signature: z
    .string()
    .describe('tag.class shape shared by the records ("dt.+dd." when each record spans several siblings).'),
  container: z.string().describe('Short description of the parent element.'),
  in_nav: z.boolean().describe('Inside nav, header, footer or aside.'),
  in_article: z.boolean().optional().describe('The group and the article body overlap (one holds the other).'),
  heading: z.string().optional().describe('What the page calls the list: its label, or the nearest heading above.'),
  records: z.array(ContentRecord),
});
export type RecordGroup = z.infer<typeof RecordGroup>;

export const ContentBlock = z.object({
  kind: z.enum(['heading', 'text', 'list', 'table', 'image', 'code', 'quote']),
  text: z.string().describe('Plain text (for a list: items joined by newlines).'),
  md: z.string().describe('The block as Markdown with absolute links and images.'),
  level: z.int().optional().describe('Heading level 1-6.'),
  table: z.int().optional().describe('Index into tables for a table block.'),
  main: z.boolean().describe('Inside the main-content region (main, [role=main], a lone article).'),
  nav: z.boolean().describe('Inside nav, header, footer or aside.'),
  article: z
    .boolean()
    .optional()
    .describe('Part of the article body as scored on the page (boilerplate inside it left out).'),
});
export type ContentBlock = z.infer<typeof ContentBlock>;

export const MicrodataItem = z.object({
  type: z.string(),
  properties: z.record(z.string(), z.array(z.string())),
});
export type MicrodataItem = z.infer<typeof MicrodataItem>;

export const PageMetadata = z.object({
  meta: z
    .record(z.string(), z.string())
    .describe('meta name/property → content (og:*, twitter:*, description, author...).'),
  json_ld: z.array(z.unknown()).describe('Parsed JSON-LD objects (@graph arrays flattened).'),
  microdata: z.array(MicrodataItem).describe('Top-level itemscope items.'),
  canonical: z.string().optional(),
});
export type PageMetadata = z.infer<typeof PageMetadata>;

export const ContentArticle = z.object({
  readerable: z.boolean().describe('The page reads as an article: enough long paragraphs outside boilerplate.'),
  byline: z
    .string()
    .nullable()
    .describe('Text of the first element named as a byline (class/id byline or author, rel=author, itemprop author).'),
  chars: z.number().describe('Characters of text in the article body.'),
  marked: z
    .boolean()
    .describe('The page marks the body as its one article (a lone <article>, [itemprop=articleBody]).'),
});
export type ContentArticle = z.infer<typeof ContentArticle>;

export const PageContent = z
  .object({
    url: z.string(),
    title: z.string(),
    lang: z.string(),
    blocks: z.array(ContentBlock).describe('Headings, text, lists, tables, images in document order.'),
    links: z.array(ContentLink),
    images: z.array(ContentImage),
    tables: z.array(ContentTable),
    records: z.array(RecordGroup).describe('Repeated records: groups of sibling elements of the same shape.'),
    metadata: PageMetadata,
    has_main: z.boolean().describe('A main-content region was found.'),
    article: ContentArticle.optional().describe('Where the article body is, when the page has one.'),
    full_page: z.boolean(),
    scrolled: z
      .object({
        reached_bottom: z.boolean().describe('The page stopped growing before the time limit.'),
        ms: z.number().describe('How long scrolling took.'),
      })
      .optional()
      .describe('What scroll_to_bottom did, when it was asked for (added by the driver).'),
  })
  .meta({ id: 'PageContent' });
export type PageContent = z.infer<typeof PageContent>;
