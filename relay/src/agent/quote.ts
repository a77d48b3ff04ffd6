/** The most of someone's words a message quotes back. */
const QUOTE_CHARS = 80;

/**
 * A short excerpt of a text, whitespace collapsed, cut with "…": a message never echoes a whole
 * command back (a command may be long, and answers and logs should stay small).
 */
export function excerpt(text: string, max = QUOTE_CHARS): string {
  const head = text
    .slice(0, max * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return head.length > max || text.length > max * 4 ? `${head.slice(0, max - 1).trimEnd()}…` : head;
}
