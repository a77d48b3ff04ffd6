/** Turning visible text into typed values: prices, dates, ratings, numbers. Pure. */

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₺': 'TRY',
};
const CODES = /\b(USD|EUR|GBP|JPY|CHF|NOK|SEK|DKK|PLN|CAD|AUD|INR|CNY|BRL|MXN)\b/;
const NUMBER = /\d[\d.,'\s]*\d|\d/;

export interface Price {
  amount: number;
  currency: string | null;
}

/** A number written with either decimal convention: "1,249.00", "1.249,00", "12,00", "984,748". */
export function parseNumber(text: string): number | null {
  const match = NUMBER.exec(text);
  if (!match) return null;
  let raw = match[0].replace(/[\s']/g, '');
  const lastComma = raw.lastIndexOf(',');
  const lastDot = raw.lastIndexOf('.');
  if (lastComma > lastDot) {
    // A comma followed by exactly three digits and no dot is a thousands separator (984,748).
    const decimals = raw.length - lastComma - 1;
    raw = decimals === 3 && lastDot < 0 ? raw.replace(/,/g, '') : raw.replace(/\./g, '').replace(',', '.');
  } else {
    raw = raw.replace(/,/g, '');
  }
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** The currency a price text names, as an ISO code when the symbol is unambiguous. */
export function currencyOf(text: string): string | null {
  const code = CODES.exec(text);
  if (code) return code[1] ?? null;
  for (const [symbol, iso] of Object.entries(SYMBOLS)) if (text.includes(symbol)) return iso;
  return null;
}

export function looksLikePrice(text: string): boolean {
  return text.length < 40 && NUMBER.test(text) && (currencyOf(text) !== null || /\b(price|kr)\b/i.test(text));
}

export function parsePrice(text: string): Price | null {
  const amount = parseNumber(text);
  return amount === null ? null : { amount, currency: currencyOf(text) };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const DATE_PATTERNS: [RegExp, (m: RegExpExecArray) => [number, number, number]][] = [
  [/\b(\d{4})-(\d{2})-(\d{2})/, (m) => [Number(m[1]), Number(m[2]), Number(m[3])]],
  [new RegExp(`\\b${MONTH_NAME}\\s+(\\d{1,2}),?\\s+(\\d{4})`, 'i'), (m) => [Number(m[3]), monthOf(m[1]), Number(m[2])]],
  [
    new RegExp(`\\b(\\d{1,2})\\.?\\s+${MONTH_NAME}\\s+(\\d{4})`, 'i'),
    (m) => [Number(m[3]), monthOf(m[2]), Number(m[1])],
  ],
  [/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/, (m) => [Number(m[3]), Number(m[1]), Number(m[2])]],
  [/\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/, (m) => [Number(m[3]), Number(m[2]), Number(m[1])]],
];

function monthOf(name: string | undefined): number {
  return MONTHS.indexOf((name ?? '').slice(0, 3).toLowerCase()) + 1;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The first date in the text as ISO `YYYY-MM-DD` (a full ISO timestamp stays as it is). */
export function parseDate(text: string): string | null {
  const iso = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/.exec(text);
  if (iso) return iso[0];
  for (const [pattern, parts] of DATE_PATTERNS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const [y, mo, d] = parts(m);
    if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && y > 1000) return `${y}-${pad(mo)}-${pad(d)}`;
  }
  return null;
}

export function looksLikeDate(text: string): boolean {
  return text.length < 60 && parseDate(text) !== null;
}

/** "4.5 out of 5 stars", "Rated 4/5", "(4.5)", or a row of ★/½ glyphs. */
export function parseRating(text: string): number | null {
  const outOf = /(\d+(?:[.,]\d+)?)\s*(?:out of|\/|of)\s*\d+/i.exec(text);
  if (outOf) return parseNumber(outOf[1] ?? '');
  const stars = text.match(/★/g)?.length ?? 0;
  if (stars > 0) return stars + (text.includes('½') ? 0.5 : 0);
  const plain = /^\(?\s*(\d(?:[.,]\d+)?)\s*\)?$/.exec(text.trim());
  return plain ? parseNumber(plain[1] ?? '') : null;
}
