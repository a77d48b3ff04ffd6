/**
 * How the article suite compares text: words, token F1, and the "same title / same byline" rule. Pure,
 * linear time.
 *
 * - Words: runs of letters and digits (Unicode), after NFKC and lower-casing; everything else separates.
 * - Token F1: F1 of the two word multisets (precision = shared words / words returned).
 * - A title or byline is right when its words reach token F1 ≥ 0.8 against the reference's (so a
 *   site-name suffix the reference kept or dropped, or a "By", does not decide alone); when the
 *   reference has none, it is right only when retrieve returned none.
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text, normalized: NFKC, lower case, letters and digits only. */
export function words(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
}

/** F1 of two word multisets; two empty texts agree (1), one empty against words scores 0. */
export function tokenF1(got: string[], expected: string[]): number {
  if (got.length === 0 && expected.length === 0) return 1;
  if (got.length === 0 || expected.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of expected) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of got) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(w, left - 1);
    }
  }
  if (shared === 0) return 0;
  const precision = shared / got.length;
  const recall = shared / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The threshold of `sameText`: a title differing only by a short site suffix or a "By" still counts. */
export const SAME_TEXT_F1 = 0.8;

/** Whether a short text (title, byline) matches the reference by the rule above. */
export function sameText(got: unknown, expected: string | null | undefined): boolean {
  const gotWords = typeof got === 'string' ? words(got) : [];
  const wanted = expected ? words(expected) : [];
  if (wanted.length === 0) return gotWords.length === 0;
  return tokenF1(gotWords, wanted) >= SAME_TEXT_F1;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntity(entity: string): string {
  if (entity[1] === '#') {
    const hex = entity[2] === 'x' || entity[2] === 'X';
    const code = Number.parseInt(entity.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  }
  return ENTITIES[entity.slice(1, -1)] ?? entity;
}

/** Elements whose content is not text. */
const RAW = ['script', 'style'];

/**
 * The text of serialized HTML (Readability's expected.html): tags become spaces, script and style
 * bodies and comments are dropped, the entities a serializer writes are decoded. One pass with
 * indexOf, so hostile input stays linear.
 */
export function htmlText(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) {
      out += html.slice(at);
      break;
    }
    out += `${html.slice(at, open)} `;
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      at = close < 0 ? html.length : close + 3;
      continue;
    }
    const close = html.indexOf('>', open + 1);
    if (close < 0) break;
    at = close + 1;
    const raw = RAW.find(
      (tag) => lower.startsWith(tag, open + 1) && !/[a-z0-9]/.test(lower[open + 1 + tag.length] ?? ''),
    );
    if (raw) {
      const end = lower.indexOf(`</${raw}`, at);
      at = end < 0 ? html.length : end;
    }
  }
  return out.replace(/&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,6});/gi, decodeEntity);
}

/** The readable text of Markdown: link and image targets `](url)` dropped (they are not page text). */
export function markdownText(markdown: string): string {
  let out = '';
  let at = 0;
  for (let open = markdown.indexOf('](', at); open >= 0; open = markdown.indexOf('](', at)) {
    let end = open + 2;
    while (end < markdown.length && markdown[end] !== ')' && !/\s/.test(markdown[end] ?? '')) end++;
    if (markdown[end] === ')') {
      out += `${markdown.slice(at, open)}] `;
      at = end + 1;
    } else {
      // Every "](" inside this run stops at the same place and fails the same way: skip past it.
      out += markdown.slice(at, end);
      at = end;
    }
  }
  return out + markdown.slice(at);
}

/** Mean and 25th percentile of a list of scores (NaN when empty). */
export function meanAndP25(values: number[]): { mean: number; p25: number } {
  if (values.length === 0) return { mean: Number.NaN, p25: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const p25 = sorted[Math.max(0, Math.ceil(0.25 * sorted.length) - 1)] ?? Number.NaN;
  return { mean, p25 };
}
