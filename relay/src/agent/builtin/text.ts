/** Words that carry no meaning when matching a target against a page ("the", "my", "to"). */
const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'my',
  'your',
  'our',
  'this',
  'that',
  'of',
  'to',
  'on',
  'in',
  'at',
  'for',
  'me',
  'i',
  'it',
  'its',
  'and',
  'or',
  'with',
  'is',
]);

/** Spellings that mean the same on web pages, folded to one word on both sides of a comparison. */
const SYNONYMS: [RegExp, string][] = [
  [/\b(?:log|sign)[ -]?(?:in|on)\b/g, 'login'],
  [/\b(?:log|sign)[ -]?out\b/g, 'logout'],
  [/\bsign[ -]?up\b/g, 'signup'],
  [/\be[ -]mail\b/g, 'email'],
  [/\bokay\b/g, 'ok'],
];

/** The longest text compared: labels are short, and a user's words beyond this cannot name one. */
const MAX_COMPARED_CHARS = 500;
/** A close cross, however it is drawn, is a "close" button to the user who asks for "the x". */
const CLOSE_GLYPHS = /[×✕✖✗✘╳⨯☓]/g;

/** Lower case, no accents, punctuation as spaces (letters of any script kept), synonyms folded. */
export function normalize(text: string): string {
  let out = text
    .replace(CLOSE_GLYPHS, ' close ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  // Letters and digits of every script, and symbols people name things by (♥, ★): "ヘルプ" is a word too.
  out = out.replace(/[^\p{L}\p{M}\p{N}\p{So}$€£]+/gu, ' ');
  for (const [pattern, word] of SYNONYMS) out = out.replace(pattern, word);
  out = out.trim().replace(/\s+/g, ' ');
  return out === 'x' ? 'close' : out;
}

/** Meaningful words of a text; all words when every one of them is a stop word. */
export function words(text: string): string[] {
  const all = normalize(text).split(' ').filter(Boolean);
  const kept = all.filter((w) => !STOP_WORDS.has(w));
  return kept.length > 0 ? kept : all;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ing|ed)$/.test(word)) return word.replace(/(?:ing|ed)$/, '');
  if (word.length > 3 && word.endsWith('es') && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Edit distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** How well two single words match: 1 equal, less for plurals, prefixes and typos, 0 unrelated. */
export function wordScore(a: string, b: string): number {
  if (a === b) return 1;
  if (/\d/.test(a) || /\d/.test(b)) return 0;
  const [sa, sb] = [stem(a), stem(b)];
  if (sa === sb) return 0.95;
  const [short, long] = sa.length <= sb.length ? [sa, sb] : [sb, sa];
  if (short.length >= 4 && long.startsWith(short)) return 0.75;
  if (short.length >= 4 && editDistance(a, b, long.length >= 8 ? 2 : 1) <= (long.length >= 8 ? 2 : 1)) return 0.8;
  return 0;
}

/**
 * How well a query (the user's words) matches a candidate (a page label): 1 for the same words, less
 * for missing query words (recall) and, gently, for extra candidate words (precision).
 */
export function textScore(query: string, candidate: string): number {
  const q = words(query.slice(0, MAX_COMPARED_CHARS));
  const c = words(candidate);
  if (q.length === 0 || c.length === 0) return 0;
  if (q.join(' ') === c.join(' ')) return 1;
  const used = new Array<number>(c.length).fill(0);
  let recall = 0;
  for (const word of q) {
    let best = 0;
    let at = -1;
    c.forEach((other, i) => {
      const score = wordScore(word, other);
      if (score > best) [best, at] = [score, i];
    });
    recall += best;
    if (at >= 0) used[at] = Math.max(used[at]!, best);
  }
  recall /= q.length;
  const precision = used.reduce((sum, v) => sum + v, 0) / c.length;
  // A number the user gave must be there: "section 5" is not "section 1".
  const numbersMissing = q.some((word) => /^\d/.test(word) && !c.includes(word));
  // Same words in another order ("low to high" / "high to low") rank just below the exact phrase.
  const phrase = ` ${c.join(' ')} `.includes(` ${q.join(' ')} `) ? 0.02 : 0;
  return Math.min(0.97, recall * (0.6 + 0.4 * precision) + phrase) * (numbersMissing ? 0.4 : 1);
}

/** Whether every meaningful word of `query` appears (fuzzily) in `text`. */
export function containsWords(text: string, query: string): boolean {
  const have = words(text);
  return words(query.slice(0, MAX_COMPARED_CHARS)).every((word) =>
    have.some((other) => wordScore(word, other) >= 0.75),
  );
}
