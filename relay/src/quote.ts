/** The longest piece of a caller's input a message repeats back. */
export const QUOTE_CHARS = 80;

/** `text` cut to `max` characters, ending with an ellipsis when it was cut (never splitting a surrogate pair). */
export function clip(text: string, max = QUOTE_CHARS): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** A caller's text as a message quotes it: in double quotes, at most `max` characters of it. */
export function quote(text: string, max = QUOTE_CHARS): string {
  return JSON.stringify(clip(text, max));
}
