/**
 * Dates and times as people type them ("09/10/2012", "Sep 10, 2012", "4:30 PM") turned into the value
 * format of date-like inputs ("2012-09-10", "16:30"), which is all such an input accepts as a value.
 * Character loops, no regular expressions: a page may patch RegExp (see intrinsics.ts).
 */
import { strCharCodeAt, strLower, strSlice, toNumber } from '../intrinsics';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

interface Tokens {
  numbers: string[];
  words: string[];
}

function tokenize(text: string): Tokens {
  const numbers: string[] = [];
  const words: string[] = [];
  let current = '';
  let kind = 0; // 1 digits, 2 letters
  const flush = () => {
    if (kind === 1) numbers[numbers.length] = current;
    if (kind === 2) words[words.length] = strLower(current);
    current = '';
    kind = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const code = strCharCodeAt(text, i);
    const next = code >= 48 && code <= 57 ? 1 : (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ? 2 : 0;
    if (next !== kind) flush();
    if (next === 0) continue;
    kind = next;
    current += text[i];
  }
  flush();
  return { numbers, words };
}

function pad(n: number, width: number): string {
  let out = `${n}`;
  while (out.length < width) out = `0${out}`;
  return out;
}

function monthOf(words: string[]): number {
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w.length < 3) continue;
    const prefix = strSlice(w, 0, 3);
    for (let m = 0; m < MONTHS.length; m++) if (MONTHS[m] === prefix) return m + 1;
  }
  return 0;
}

function fullYear(text: string): number {
  const n = toNumber(text);
  if (text.length > 2) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

function validDate(y: number, m: number, d: number): string | null {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** "09/10/2012" (month first where the browser's language writes it so), "10.09.2012", "2012/9/10", "Sep 10, 2012". */
function toDate(tokens: Tokens, dayFirst: boolean): string | null {
  const n = tokens.numbers;
  const month = monthOf(tokens.words);
  if (month > 0 && n.length >= 2) {
    const a = n[0] as string;
    const b = n[1] as string;
    return a.length >= 3 ? validDate(toNumber(a), month, toNumber(b)) : validDate(fullYear(b), month, toNumber(a));
  }
  if (n.length < 3) return null;
  const a = n[0] as string;
  const b = n[1] as string;
  const c = n[2] as string;
  if (a.length >= 3) return validDate(toNumber(a), toNumber(b), toNumber(c));
  const x = toNumber(a);
  const y = toNumber(b);
  const first = x > 12 ? true : y > 12 ? false : dayFirst;
  return first ? validDate(fullYear(c), y, x) : validDate(fullYear(c), x, y);
}

/** "4:30 PM" → "16:30", "16:05:09" → "16:05:09", "4pm" → "16:00". */
function toTime(tokens: Tokens): string | null {
  const n = tokens.numbers;
  if (n.length === 0) return null;
  let h = toNumber(n[0] as string);
  const m = n.length > 1 ? toNumber(n[1] as string) : 0;
  let pm = false;
  let am = false;
  for (let i = 0; i < tokens.words.length; i++) {
    const w = tokens.words[i];
    if (w === 'pm' || w === 'p') pm = true;
    if (w === 'am' || w === 'a') am = true;
  }
  if (pm && h < 12) h += 12;
  if (am && h === 12) h = 0;
  if (h > 23 || m > 59) return null;
  const seconds = n.length > 2 ? `:${pad(toNumber(n[2] as string), 2)}` : '';
  return `${pad(h, 2)}:${pad(m, 2)}${seconds}`;
}

/** Where a time starts in "2012-09-10 16:30" or "Sep 10, 2012 4:30 PM": after the date's third number. */
function splitDateTime(text: string): [string, string] {
  let numbers = 0;
  let inNumber = false;
  for (let i = 0; i < text.length; i++) {
    const code = strCharCodeAt(text, i);
    const digit = code >= 48 && code <= 57;
    if (digit && !inNumber) numbers++;
    if (!digit && inNumber && numbers >= 3) return [strSlice(text, 0, i), strSlice(text, i)];
    inNumber = digit;
  }
  return [text, ''];
}

/**
 * The value a date-like input (`type` date, time, datetime-local, month) takes for what a person typed,
 * or null when the text is not a date or time of that kind.
 */
export function dateInputValue(type: string, text: string, dayFirst: boolean): string | null {
  if (type === 'date') return toDate(tokenize(text), dayFirst);
  if (type === 'time') return toTime(tokenize(text));
  if (type === 'month') {
    const tokens = tokenize(text);
    const month = monthOf(tokens.words);
    const n = tokens.numbers;
    if (month > 0 && n.length >= 1) return `${pad(fullYear(n[0] as string), 4)}-${pad(month, 2)}`;
    if (n.length < 2) return null;
    const a = n[0] as string;
    const b = n[1] as string;
    const y = a.length >= 3 ? toNumber(a) : fullYear(b);
    const m = a.length >= 3 ? toNumber(b) : toNumber(a);
    return m >= 1 && m <= 12 ? `${pad(y, 4)}-${pad(m, 2)}` : null;
  }
  if (type === 'datetime-local') {
    const parts = splitDateTime(text);
    const date = toDate(tokenize(parts[0]), dayFirst);
    const time = toTime(tokenize(parts[1] || '00:00'));
    return date && time ? `${date}T${time}` : null;
  }
  return null;
}
