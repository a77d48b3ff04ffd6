/** Types a cmd asks for: "price as a number", "date as ISO", "rating (number)". Pure. */

export type FieldType = 'number' | 'integer' | 'date' | 'string' | 'url' | 'boolean';

const TYPE_WORDS: [RegExp, FieldType][] = [
  [/^(an? )?(integer|int|whole number|count)\b/, 'integer'],
  [/^(an? )?(number|numeric|float|decimal|double)\b/, 'number'],
  [/^(an? )?(iso( ?8601)?( date)?|date|datetime|timestamp)\b/, 'date'],
  [/^(an? )?(text|string|plain text)\b/, 'string'],
  [/^(an? )?(absolute )?(url|link|uri)\b/, 'url'],
  [/^(an? )?(boolean|bool|true\/false|yes\/no)\b/, 'boolean'],
];

function typeAt(rest: string): FieldType | null {
  const text = rest.toLowerCase();
  for (const [pattern, type] of TYPE_WORDS) if (pattern.test(text)) return type;
  return null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Field name → type, for names the cmd mentions with "as <type>", "in <type>", ": <type>" or "(<type>)". */
export function typeHints(cmd: string, names: readonly string[]): Record<string, FieldType> {
  const out: Record<string, FieldType> = {};
  const lower = cmd.toLowerCase();
  for (const name of names) {
    const spoken = escapeRegExp(name.toLowerCase()).replace(/[_\s-]+/g, '[_\\s-]+');
    const pattern = new RegExp(`\\b${spoken}s?\\b\\s*(?:as|in|:|\\(|=|should be|formatted as)\\s*`, 'g');
    for (let m = pattern.exec(lower); m; m = pattern.exec(lower)) {
      const type = typeAt(lower.slice(m.index + m[0].length));
      if (type) {
        out[name] = type;
        break;
      }
    }
  }
  return out;
}

/** Field names a cmd mentions among the usual ones, for "get the price and rating" without `fields`. */
export const COMMON_FIELDS = [
  'name',
  'title',
  'url',
  'link',
  'image',
  'price',
  'currency',
  'date',
  'rating',
  'author',
  'description',
];
