import { mathMax, strCharCodeAt, strSlice } from './intrinsics';

/** Characters after which a capped value is cut; the attribute cap of DESIGN §3. */
export const ATTRIBUTE_CAP = 100;
/** Cap for the text inside an element tag (a card link can hold a whole card). */
export const LABEL_CAP = 150;

export function isSpace(code: number): boolean {
  // space, tab, newlines, form feed, nbsp, zero-width space, line/paragraph separators
  return (
    code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0x200b || code === 0x2028 || code === 0x2029
  );
}

/** Collapses runs of whitespace to one space and trims, without regular expressions (patchable). */
export function collapseWhitespace(text: string): string {
  let out = '';
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    const code = strCharCodeAt(text, i);
    if (isSpace(code)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += text[i];
  }
  return out;
}

/** Cuts text to `max` characters, ending with an ellipsis when it was cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${strSlice(text, 0, mathMax(0, max - 1))}…`;
}

/** Renders an attribute value: bare when it is a simple token, else double-quoted with quotes escaped. */
export function quoteValue(value: string): string {
  if (value.length === 0) return '""';
  let simple = true;
  let escaped = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '"' || ch === '\\') {
      escaped += `\\${ch}`;
      simple = false;
      continue;
    }
    if (ch === ' ' || ch === "'" || ch === '<' || ch === '>' || ch === '=' || ch === '`') simple = false;
    escaped += ch;
  }
  return simple ? value : `"${escaped}"`;
}
