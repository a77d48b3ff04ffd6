/** Values converted to the type a cmd asks for ("price as a number", "date as ISO"); shared by both modes. Pure. */
import type { FieldType } from './heuristic/hints';
import { parseDate, parsePrice } from './heuristic/values';

const TRUE = /^(true|yes|in stock|available|1)$/i;
const FALSE = /^(false|no|out of stock|sold out|unavailable|0)$/i;

/**
 * Converts a value to `type`; undefined type leaves it as it is. A value that cannot be converted
 * becomes null for numbers (a wrong number is worse than none) and stays as text for dates.
 */
export function coerce(value: unknown, type: FieldType | undefined): unknown {
  if (value === null || value === undefined || type === undefined) return value ?? null;
  // A list of plain values reads as one text ("red, blue"); anything else structured as JSON.
  const text =
    Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)
      ? value.join(', ')
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  switch (type) {
    case 'number':
    case 'integer': {
      if (typeof value === 'number') return type === 'integer' ? Math.round(value) : value;
      const parsed = parsePrice(text)?.amount ?? null;
      return parsed === null ? null : type === 'integer' ? Math.round(parsed) : parsed;
    }
    case 'date':
      return parseDate(text) ?? text;
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      const trimmed = text.trim();
      return TRUE.test(trimmed) ? true : FALSE.test(trimmed) ? false : null;
    }
    default:
      return typeof value === 'string' ? value : text;
  }
}
