/** An element's opening in the snapshot text, `[12]<a title="x > y" checked>`: quoted values may hold `>`. */
const OPENER = String.raw`\[\d+\]<[\w-]+(?:[^>"]|"(?:[^"\\]|\\.)*")*>`;
const WITH_TEXT = new RegExp(`${OPENER}(.*?)</>`, 'g');
const WITHOUT_TEXT = new RegExp(OPENER, 'g');

/** The snapshot's text as a reader sees it: element markup reduced to labels, one trimmed line per line. */
export function readableLines(snapshotText: string): string[] {
  return snapshotText
    .split('\n')
    .map((line) =>
      line.replace(WITH_TEXT, '$1').replace(WITHOUT_TEXT, '').replace(/^\*/, '').replace(/\s+/g, ' ').trim(),
    )
    .filter((line) => line && !/^\[(?:top|end) of page\]$|^\[\d+px .*(?:viewport|scroll).*\]$/.test(line));
}

/** Whether a readable line is a heading ("# Title", "## Item"). */
export const isHeading = (line: string) => /^#{1,6}\s/.test(line);

export const stripHeading = (line: string) => line.replace(/^#{1,6}\s+/, '');

/**
 * A snapshot line as plain words for an answer: no heading marks, list bullets or emphasis, and table
 * cells separated by commas (the snapshot's Markdown-like marks are for the model, not the user).
 */
export function plainText(line: string): string {
  return stripHeading(line)
    .replace(/^(?:[-*•]\s+)+/, '')
    .replace(/\s+\|\s+/g, ', ')
    .replace(/\*\*|__|`/g, '')
    .trim();
}
