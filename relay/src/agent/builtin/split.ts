/**
 * The first pass of the grammar: protects quoted text and URL-like tokens, then cuts an instruction
 * into clauses. A clause starts with a verb; parts joined by "and" or commas that start with no verb
 * are list items of the clause before ("check A, B and C", "enter the name X and the email Y").
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

const QUOTED = /"([^"]*)"|“([^”]*)”|‘([^’]*)’|(?<![\w])'([^']+)'(?![\w])|`([^`]*)`/g;
const TOKEN_WITH_DOTS = /(?:https?:\/\/|www\.)[^\s\uE000]+|(?<![\S])\/[^\s\uE000]*|[^\s\uE000]*\w[.@/:]\w[^\s\uE000]*/g;

/** Replaces quoted text and URL-like tokens with placeholders, so splitting cannot cut through them. */
export function protect(input: string, slots: Slot[]): string {
  const slot = (text: string, quoted: boolean) => `${OPEN}${slots.push({ text, quoted }) - 1}${CLOSE}`;
  const unquoted = input.replace(QUOTED, (...groups: string[]) =>
    slot(groups.slice(1, 6).find((g) => g !== undefined) ?? '', true),
  );
  return unquoted.replace(TOKEN_WITH_DOTS, (token) => {
    const trailing = /[.,;:!?)]+$/.exec(token)?.[0] ?? '';
    const body = token.slice(0, token.length - trailing.length);
    return body ? `${slot(body, false)}${trailing}` : token;
  });
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

const POLITE_PREFIX =
  /^(?:(?:please|pls|kindly|now|then|first|firstly|second|secondly|next|finally|lastly|also|and|just|ok|okay|so|after that|afterwards|hi|hello|hey|thanks|thank you|cheers|for me)\b[,:\s]*|(?:could|can|would|will) you(?: please)?\s+|i(?:'d| would) like (?:you )?to\s+|i (?:want|need) (?:you )?to\s+|(?:go ahead and|try to|make sure (?:to|you)|be sure to|remember to)\s+|let'?s\s+)+/i;
const POLITE_SUFFIX = /(?:[\s,]+(?:please|for me|thanks|thank you|if you can|if possible))+[.!\s]*$/i;

/** Drops courtesy words around a clause ("please", "could you", "for me", "thanks"). */
export function stripPolite(text: string): string {
  return text
    .replace(POLITE_PREFIX, '')
    .replace(POLITE_SUFFIX, '')
    .replace(/[.!,;:\s]+$/, '')
    .trim();
}

const SENTENCES = /(?<=[.!?;])\s+|\n+/;
const SEQUENCE =
  /\s*,?\s*\b(?:and then|then|after that|afterwards|and finally|finally|once (?:that is |that's |it is |it's )?done|when (?:that is |that's )?done)\b[,\s]*/i;
const LIST = /\s*,\s*(?:and\s+)?|\s+and\s+|\s+&\s+|\s+as well as\s+|\s+plus\s+/i;

/** Cuts an instruction (already protected) into clauses; `startsClause` tells a verb from a list item. */
export function splitClauses(text: string, startsClause: (part: string) => boolean): Clause[] {
  const clauses: Clause[] = [];
  for (const sentence of text.split(SENTENCES)) {
    const question = /\?\s*$/.test(sentence);
    for (const chunk of sentence.replace(/\?\s*$/, '').split(SEQUENCE)) {
      let current: Clause | undefined;
      const separators = chunk.match(new RegExp(LIST.source, 'gi')) ?? [];
      chunk.split(LIST).forEach((piece, i) => {
        const part = stripPolite(piece);
        if (!part) return;
        if (!current || startsClause(part)) {
          current = { head: part, items: [], raw: part, question };
          clauses.push(current);
        } else {
          current.items.push(part);
          current.raw += `${separators[i - 1] ?? ' and '}${piece.trim()}`;
        }
      });
    }
  }
  return clauses.map((c) => ({ ...c, raw: stripPolite(c.raw) }));
}
