/**
 * Field types: each field has one type, from its name, unless the cmd asks for another ("price as
 * text", "date as ISO", "rating (number)"). The cmd is read word by word in one pass: linear in its
 * length whatever it holds. Pure.
 */
import { normalizeName, roleOf } from './roles';

export type FieldType = 'number' | 'integer' | 'date' | 'string' | 'url' | 'boolean';

/**
 * The type a field has on every page unless the cmd says otherwise: URLs (url, link, image...) are
 * absolute URL strings, prices and ratings numbers, dates ISO 8601 strings, everything else the text
 * as shown on the page.
 */
export function fieldType(field: string): FieldType {
  switch (roleOf(field)) {
    case 'url':
    case 'image':
      return 'url';
    case 'price':
    case 'rating':
      return 'number';
    case 'date':
      return 'date';
    default:
      return 'string';
  }
}

/** Each field's type: the cmd's hint where it gives one, else the field's own (fieldType). */
export function fieldTypes(cmd: string, names: readonly string[]): Record<string, FieldType> {
  const hints = typeHints(cmd, names);
  const out: Record<string, FieldType> = {};
  for (const name of names) out[name] = hints[name] ?? fieldType(name);
  return out;
}

/** Type phrases, as word sequences, after an optional "a"/"an". */
const TYPE_PHRASES: [string[], FieldType][] = [
  [['integer'], 'integer'],
  [['int'], 'integer'],
  [['whole', 'number'], 'integer'],
  [['count'], 'integer'],
  [['number'], 'number'],
  [['numeric'], 'number'],
  [['float'], 'number'],
  [['decimal'], 'number'],
  [['double'], 'number'],
  [['iso'], 'date'],
  [['date'], 'date'],
  [['datetime'], 'date'],
  [['timestamp'], 'date'],
  [['text'], 'string'],
  [['string'], 'string'],
  [['plain', 'text'], 'string'],
  [['absolute', 'url'], 'url'],
  [['url'], 'url'],
  [['link'], 'url'],
  [['uri'], 'url'],
  [['boolean'], 'boolean'],
  [['bool'], 'boolean'],
  [['true', '/', 'false'], 'boolean'],
  [['yes', '/', 'no'], 'boolean'],
];
/** What may stand between a field's name and its type. */
const CONNECTORS: string[][] = [['as'], ['in'], [':'], ['('], ['='], ['should', 'be'], ['formatted', 'as']];

const TOKEN = /[\p{L}\p{N}]+|[:(=/]/gu;

function startsWith(tokens: string[], at: number, words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) if (tokens[at + i] !== words[i]) return false;
  return true;
}

function typeAt(tokens: string[], at: number): FieldType | null {
  let i = at;
  if (tokens[i] === 'a' || tokens[i] === 'an') i++;
  for (const [words, type] of TYPE_PHRASES) if (startsWith(tokens, i, words)) return type;
  return null;
}

/** Field name → type, for names the cmd mentions with "as <type>", "in <type>", ": <type>" or "(<type>)". */
export function typeHints(cmd: string, names: readonly string[]): Record<string, FieldType> {
  const out: Record<string, FieldType> = {};
  if (names.length === 0 || cmd === '') return out;
  const tokens = cmd.toLowerCase().match(TOKEN) ?? [];
  // Where each word starts a name, so the scan below is one pass over the tokens.
  const byFirst = new Map<string, { name: string; words: string[] }[]>();
  for (const name of names) {
    const words = normalizeName(name).match(TOKEN) ?? [];
    if (words.length === 0) continue;
    const list = byFirst.get(words[0] as string) ?? [];
    list.push({ name, words });
    byFirst.set(words[0] as string, list);
  }
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as string;
    const candidates =
      byFirst.get(token) ?? (token.endsWith('s') && token.length > 1 ? byFirst.get(token.slice(0, -1)) : undefined);
    if (!candidates) continue;
    for (const { name, words } of candidates) {
      if (out[name]) continue;
      let end = t;
      let matched = true;
      for (let w = 0; w < words.length; w++, end++) {
        const word = tokens[end];
        // The last word may be plural: "prices as text" names price.
        if (word !== words[w] && !(w === words.length - 1 && word === `${words[w]}s`)) {
          matched = false;
          break;
        }
      }
      if (!matched) continue;
      for (const connector of CONNECTORS) {
        if (!startsWith(tokens, end, connector)) continue;
        const type = typeAt(tokens, end + connector.length);
        if (type) {
          out[name] = type;
          break;
        }
      }
    }
  }
  return out;
}
