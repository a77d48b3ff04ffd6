/** The JSON schema and prompt the model extracts with, built from `fields` and the cmd's type hints. Pure. */
import type { FieldType } from '../heuristic/hints';

type JsonSchema = Record<string, unknown>;

const TYPES: Record<FieldType, JsonSchema> = {
  number: { type: ['number', 'null'] },
  integer: { type: ['integer', 'null'] },
  date: {
    type: ['string', 'null'],
    description: 'ISO 8601 date (YYYY-MM-DD, or a full timestamp when the page gives the time).',
  },
  string: { type: ['string', 'null'] },
  url: { type: ['string', 'null'], description: 'Absolute URL.' },
  boolean: { type: ['boolean', 'null'] },
};

/** `{items: [{field: value|null}]}`; strict when the fields are known. */
export function itemsSchema(
  fields: string[] | undefined,
  types: Record<string, FieldType>,
): { schema: JsonSchema; strict: boolean } {
  if (!fields || fields.length === 0) {
    return {
      schema: {
        type: 'object',
        properties: { items: { type: 'array', items: { type: 'object', additionalProperties: true } } },
        required: ['items'],
      },
      strict: false,
    };
  }
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    const type = types[field];
    // Every field has a type (fieldTypes); an unknown one is text, as the page shows it.
    properties[field] = TYPES[type ?? 'string'];
  }
  return {
    schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', properties, required: fields, additionalProperties: false },
        },
      },
      required: ['items'],
      additionalProperties: false,
    },
    strict: true,
  };
}

export const SYSTEM_PROMPT = [
  'You extract structured data from a web page given as Markdown.',
  'Answer with one JSON object {"items": [...]} and nothing else: one object per item, in the order the items appear on the page.',
  'Every requested field is present in every item; use null when the page does not show it. Never invent values, never guess.',
  'Copy URLs exactly as the page gives them (they are absolute). Give numbers as JSON numbers when a field is a number, without currency symbols or thousands separators.',
  'When no fields are given, choose short snake_case field names that fit the items.',
  'When the page holds a single subject (an article, a product page), return one item.',
].join('\n');

export function userPrompt(options: {
  cmd: string;
  fields: string[] | undefined;
  types: Record<string, FieldType>;
  url: string;
  title: string;
  markdown: string;
  part: number;
  parts: number;
  schemaInPrompt: JsonSchema | undefined;
}): string {
  const lines = [`Task: ${options.cmd || 'Extract the main items of the page.'}`];
  if (options.fields?.length) {
    lines.push(
      `Fields: ${options.fields.map((f) => (options.types[f] ? `${f} (${options.types[f]})` : f)).join(', ')}`,
    );
  }
  if (options.schemaInPrompt) lines.push(`JSON schema of the answer: ${JSON.stringify(options.schemaInPrompt)}`);
  lines.push(`Page: ${options.title} <${options.url}>`);
  if (options.parts > 1) {
    lines.push(
      `This is part ${options.part} of ${options.parts} of the page; parts overlap a little. Extract only the items in this part.`,
    );
  }
  lines.push('', '--- page ---', options.markdown, '--- end of page ---');
  return lines.join('\n');
}
