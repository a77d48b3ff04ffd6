/**
 * The first pass of the grammar: protects quoted text and URL-like tokens, then cuts an instruction
 * into clauses. A clause starts with a verb; parts joined by "and" or commas that start with no verb
 * are list items of the clause before ("check A, B and C", "enter the name X and the email Y").
 *
 * Everything here scans the text once, left to right, without regular expressions: a command can be
 * any size and hostile, and the relay must answer other requests while it reads one.
 */

/** A protected piece of text (quoted, or a URL, path, e-mail or number with dots). */
export interface Slot {
  text: string;
  quoted: boolean;
}

export interface Clause {
  /** The clause's first part, starting with its verb; protected pieces appear as placeholders. */
  head: string;
  /** Parts that followed without a verb of their own. */
  items: string[];
  /** The whole clause, as written (placeholders kept). */
  raw: string;
  /** The sentence ended with a question mark. */
  question: boolean;
}

const OPEN = '\uE000';
const CLOSE = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const ONLY_PLACEHOLDER = /^\uE000(\d+)\uE001$/;

/**
 * The longest clause the clause parsers read (quoted text and URLs count as one character each, so
 * only the words do). An explicit step is a short phrase; anything longer is not understood, which
 * also keeps the parsers' work per clause bounded whatever the input.
 */
export const MAX_CLAUSE_CHARS = 400;

/** Quote characters and their closing partners. */
const QUOTES: Record<string, string> = { '"': '"', '“': '”', '‘': '’', '`': '`', "'": "'" };

function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v' || ch === '\u00a0';
}

/**
 * Replaces quoted text and URL-like tokens with placeholders, so splitting cannot cut through them,
 * and collapses whitespace (runs with a line break become one line break, others one space).
 */
export function protect(input: string, slots: Slot[]): string {
  const slot = (text: string, quoted: boolean) => `${OPEN}${slots.push({ text, quoted }) - 1}${CLOSE}`;
  let out = '';
  let word = '';
  const flushWord = () => {
    if (word) out += protectToken(word, slot);
    word = '';
  };
  // A closing quote character that does not occur after the scan position will not later either.
  const exhausted: Record<string, true> = {};
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (isSpace(ch)) {
      flushWord();
      let newline = false;
      for (; i < input.length && isSpace(input[i]); i++) if (input[i] === '\n') newline = true;
      out += newline ? '\n' : ' ';
      continue;
    }
    const close = QUOTES[ch];
    const apostrophe = ch === "'";
    if (close !== undefined && exhausted[close] !== true && !(apostrophe && isWordChar(input[i - 1]))) {
      const end = input.indexOf(close, i + 1);
      if (end < 0) exhausted[close] = true;
      else if (!apostrophe || (end > i + 1 && !isWordChar(input[end + 1]))) {
        flushWord();
        out += slot(input.slice(i + 1, end), true);
        i = end + 1;
        continue;
      }
    }
    word += ch;
    i++;
  }
  flushWord();
  return out;
}

const TRAILING = '.,;:!?)';

/** A URL, host, path, e-mail or dotted number becomes a placeholder; trailing punctuation stays text. */
function protectToken(token: string, slot: (text: string, quoted: boolean) => string): string {
  let end = token.length;
  while (end > 0 && TRAILING.includes(token[end - 1] as string)) end--;
  const body = token.slice(0, end);
  if (!body || !urlLike(body)) return token;
  return `${slot(body, false)}${token.slice(end)}`;
}

function urlLike(token: string): boolean {
  const lower = token.toLowerCase();
  if (lower.startsWith('http://') || lower.startsWith('https://') || lower.startsWith('www.')) return true;
  if (token[0] === '/') return true;
  for (let i = 1; i + 1 < token.length; i++) {
    const ch = token[i];
    if ((ch === '.' || ch === '@' || ch === '/' || ch === ':') && isWordChar(token[i - 1]) && isWordChar(token[i + 1]))
      return true;
  }
  return false;
}

/** Puts the protected pieces back (quoted text without its quotes). */
export function restore(text: string, slots: Slot[]): string {
  return text.replace(PLACEHOLDER, (_, n: string) => slots[Number(n)]?.text ?? '').trim();
}

/** Whether the text is exactly one quoted piece. */
export function isQuoted(text: string, slots: Slot[]): boolean {
  const match = ONLY_PLACEHOLDER.exec(text.trim());
  return match !== null && slots[Number(match[1])]?.quoted === true;
}

/** Whether the text holds a quoted piece anywhere. */
export function hasQuote(text: string, slots: Slot[]): boolean {
  return [...text.matchAll(PLACEHOLDER)].some((m) => slots[Number(m[1])]?.quoted);
}

/** Courtesy words before a clause, each a phrase of whole words; tried longest first. */
const POLITE_PREFIXES = phrases([
  'please',
  'pls',
  'kindly',
  'now',
  'then',
  'first',
  'firstly',
  'second',
  'secondly',
  'next',
  'finally',
  'lastly',
  'also',
  'and',
  'just',
  'ok',
  'okay',
  'so',
  'after that',
  'afterwards',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank you',
  'cheers',
  'for me',
  'could you',
  'can you',
  'would you',
  'will you',
  "i'd like you to",
  "i'd like to",
  'i would like you to',
  'i would like to',
  'i want you to',
  'i want to',
  'i need you to',
  'i need to',
  'go ahead and',
  'try to',
  'make sure to',
  'make sure you',
  'be sure to',
  'remember to',
  "let's",
  'lets',
]);
const POLITE_SUFFIXES = phrases(['please', 'for me', 'thanks', 'thank you', 'if you can', 'if possible']);

function phrases(list: string[]): string[] {
  return [...list].sort((a, b) => b.length - a.length);
}

/** The length of the phrase (whole words, any case) that starts at `at`, or 0. */
function phraseAt(lower: string, at: number, list: string[]): number {
  for (const phrase of list) {
    if (lower.startsWith(phrase, at) && !isWordChar(lower[at + phrase.length])) return phrase.length;
  }
  return 0;
}

/** The length of the phrase (whole words) that ends at `end`, after a space or comma, or 0. */
function phraseBefore(lower: string, end: number, list: string[]): number {
  for (const phrase of list) {
    const at = end - phrase.length;
    if (at > 0 && lower.startsWith(phrase, at) && (lower[at - 1] === ' ' || lower[at - 1] === ',')) {
      return phrase.length;
    }
  }
  return 0;
}

/** Drops courtesy words around a clause ("please", "could you", "for me", "thanks"). */
export function stripPolite(text: string): string {
  const lower = text.toLowerCase();
  let start = 0;
  for (;;) {
    const length = phraseAt(lower, start, POLITE_PREFIXES);
    if (length === 0) break;
    start += length;
    while (start < lower.length && (lower[start] === ' ' || lower[start] === ',' || lower[start] === ':')) start++;
  }
  let end = lower.length;
  const trimEnd = (chars: string) => {
    while (end > start && chars.includes(lower[end - 1] as string)) end--;
  };
  trimEnd(' .!');
  for (;;) {
    const length = phraseBefore(lower, end, POLITE_SUFFIXES);
    if (length === 0 || end - length <= start) break;
    end -= length;
    trimEnd(' ,');
  }
  trimEnd(' .!,;:');
  return text.slice(start, end).trim();
}

/** Words that end one step and start the next: "click A, then B", "do X and finally Y". */
const SEQUENCE_MARKERS = [
  ['and', 'then'],
  ['then'],
  ['after', 'that'],
  ['afterwards'],
  ['and', 'finally'],
  ['finally'],
  ['once', 'done'],
  ['once', 'that', 'is', 'done'],
  ["once that's", 'done'],
  ['once', 'it', 'is', 'done'],
  ["once it's", 'done'],
  ['when', 'done'],
  ['when', 'that', 'is', 'done'],
  ["when that's", 'done'],
].map((words) => words.join(' ').split(' '));
/** Words that join list items: "A and B", "A & B", "A as well as B", "A plus B". */
const LIST_MARKERS = [['and'], ['&'], ['as', 'well', 'as'], ['plus']];

interface Token {
  /** Lower-cased word, or "," for a comma. */
  word: string;
  start: number;
  end: number;
}

/** Words and commas of a sentence, with their positions. */
function tokenize(sentence: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sentence.length) {
    const ch = sentence[i];
    if (ch === ' ') {
      i++;
    } else if (ch === ',') {
      tokens.push({ word: ',', start: i, end: i + 1 });
      i++;
    } else {
      const start = i;
      while (i < sentence.length && sentence[i] !== ' ' && sentence[i] !== ',') i++;
      tokens.push({ word: sentence.slice(start, i).toLowerCase(), start, end: i });
    }
  }
  return tokens;
}

/** How many tokens from `at` spell one of the markers, or 0. */
function markerAt(tokens: Token[], at: number, markers: string[][]): number {
  for (const marker of markers) {
    if (marker.every((word, k) => tokens[at + k]?.word === word)) return marker.length;
  }
  return 0;
}

/** One sentence cut at sequence words into chunks, each chunk cut at list words into pieces. */
function chunksOf(sentence: string): { piece: string; separator: string }[][] {
  const tokens = tokenize(sentence);
  const chunks: { piece: string; separator: string }[][] = [];
  let chunk: { piece: string; separator: string }[] = [];
  let pieceStart = 0;
  let separator = '';
  const close = (end: number) => {
    chunk.push({ piece: sentence.slice(pieceStart, end).trim(), separator });
  };
  for (let k = 0; k < tokens.length; ) {
    const token = tokens[k] as Token;
    const comma = token.word === ',' ? 1 : 0;
    const sequence = markerAt(tokens, k + comma, SEQUENCE_MARKERS);
    if (sequence > 0) {
      close(token.start);
      chunks.push(chunk);
      chunk = [];
      k += comma + sequence;
      while (tokens[k]?.word === ',') k++;
      pieceStart = tokens[k]?.start ?? sentence.length;
      separator = '';
      continue;
    }
    const list = comma ? (tokens[k + 1]?.word === 'and' ? 1 : 0) : markerAt(tokens, k, LIST_MARKERS);
    if (comma || list > 0) {
      close(token.start);
      const next = k + comma + list;
      pieceStart = tokens[next]?.start ?? sentence.length;
      separator = sentence.slice(token.start, pieceStart);
      separator = separator.startsWith(',') ? `${separator.trimEnd()} ` : ` ${separator.trim()} `;
      k = next;
      continue;
    }
    k++;
  }
  close(sentence.length);
  chunks.push(chunk);
  return chunks;
}

/** Cuts at line breaks, and after . ! ? ; followed by a space. */
function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const end = ch === '\n' || ((ch === '.' || ch === '!' || ch === '?' || ch === ';') && text[i + 1] === ' ');
    if (!end) continue;
    sentences.push(text.slice(start, ch === '\n' ? i : i + 1));
    start = i + 1;
  }
  sentences.push(text.slice(start));
  return sentences.map((s) => s.trim()).filter(Boolean);
}

/** Cuts an instruction (already protected) into clauses; `startsClause` tells a verb from a list item. */
export function splitClauses(text: string, startsClause: (part: string) => boolean): Clause[] {
  const clauses: Clause[] = [];
  for (let sentence of sentencesOf(text)) {
    let question = false;
    while (sentence.endsWith('?') || sentence.endsWith(' ')) {
      question ||= sentence.endsWith('?');
      sentence = sentence.slice(0, -1);
    }
    for (const chunk of chunksOf(sentence)) {
      let current: Clause | undefined;
      for (const { piece, separator } of chunk) {
        const part = stripPolite(piece);
        if (!part) continue;
        if (!current || startsClause(part)) {
          current = { head: part, items: [], raw: part, question };
          clauses.push(current);
        } else {
          current.items.push(part);
          current.raw += `${separator || ' and '}${piece}`;
        }
      }
    }
  }
  return clauses.map((c) => ({ ...c, raw: stripPolite(c.raw) }));
}
