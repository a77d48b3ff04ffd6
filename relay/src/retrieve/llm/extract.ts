/** fast/standard mode: the model reads a Markdown rendering of the page and returns items per a JSON schema. */
import type { PageContent } from '@tandem/shared';
import type OpenAI from 'openai';
import { isUnsupportedOutput } from '../../agent/llm/client';
import { type FieldType, fieldTypes } from '../heuristic/hints';
import { modelMarkdown } from '../markdown';
import { chunkMarkdown, DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS, mapLimit, mergeChunks } from './chunks';
import { normalizeItem, pageUrls } from './normalize';
import { itemsSchema, SYSTEM_PROMPT, userPrompt } from './schema';

type Item = Record<string, unknown>;

/** Chunks extracted at once per call; more would only queue at the endpoint. */
const CHUNK_CONCURRENCY = 4;

export interface ModelExtractOptions {
  client: OpenAI;
  model: string;
  /** 'prompt' puts the schema in the prompt; anything else asks for response_format json_schema first. */
  output: 'auto' | 'tools' | 'json_schema' | 'prompt';
  content: PageContent;
  cmd: string;
  fields: string[] | undefined;
  types: Record<string, FieldType>;
  chunkChars?: number | undefined;
  overlapChars?: number | undefined;
}

export class ModelAnswerError extends Error {}

/** The items in a model's answer: `{items: [...]}` or a bare array, tolerating fences and prose around it. */
export function parseItems(text: string): Item[] {
  const unfenced = text.replace(/^[\s\S]*?```(?:json)?\s*([\s\S]*?)```[\s\S]*$/, '$1');
  const start = unfenced.search(/[[{]/);
  if (start < 0) throw new ModelAnswerError('the model answered without JSON');
  const open = unfenced[start];
  const end = unfenced.lastIndexOf(open === '[' ? ']' : '}');
  let value: unknown;
  try {
    value = JSON.parse(unfenced.slice(start, end + 1));
  } catch {
    throw new ModelAnswerError('the model answered with JSON that does not parse');
  }
  const items = Array.isArray(value) ? value : (value as { items?: unknown }).items;
  if (!Array.isArray(items)) throw new ModelAnswerError('the model answer has no "items" array');
  return items.filter((i): i is Item => typeof i === 'object' && i !== null && !Array.isArray(i));
}

async function complete(options: ModelExtractOptions, markdown: string, part: number, parts: number): Promise<Item[]> {
  const { schema, strict } = itemsSchema(options.fields, options.types);
  const ask = async (schemaInPrompt: boolean) => {
    const completion = await options.client.chat.completions.create({
      model: options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: userPrompt({
            cmd: options.cmd,
            fields: options.fields,
            types: options.types,
            url: options.content.url,
            title: options.content.title,
            markdown,
            part,
            parts,
            schemaInPrompt: schemaInPrompt ? schema : undefined,
          }),
        },
      ],
      ...(schemaInPrompt
        ? {}
        : { response_format: { type: 'json_schema' as const, json_schema: { name: 'items', schema, strict } } }),
    });
    return completion.choices[0]?.message?.content ?? '';
  };
  let text: string;
  if (options.output === 'prompt') {
    text = await ask(true);
  } else {
    try {
      text = await ask(false);
    } catch (error) {
      // Endpoints without structured output (older vLLM, llama.cpp builds) get the schema in the prompt.
      if (!isUnsupportedOutput(error)) throw error;
      text = await ask(true);
    }
  }
  return parseItems(text);
}

/** Extracts the page's items with the model: chunked, in parallel, merged in page order. */
export async function extractWithModel(options: ModelExtractOptions): Promise<{ items: Item[]; chunks: number }> {
  const markdown = modelMarkdown(options.content);
  const chunks = chunkMarkdown(
    markdown,
    options.chunkChars ?? DEFAULT_CHUNK_CHARS,
    options.overlapChars ?? DEFAULT_OVERLAP_CHARS,
  );
  const results = await mapLimit(chunks, CHUNK_CONCURRENCY, (chunk, i) =>
    complete(options, chunk, i + 1, chunks.length),
  );
  const base = options.content.url;
  const known = pageUrls(options.content);
  // Without fields the model names the keys, so their types (the same rule as with fields) are found per answer.
  const typesFor = (item: Item) => (options.fields ? options.types : fieldTypes(options.cmd, Object.keys(item)));
  const normalized = results.map((items) =>
    items.map((item) => normalizeItem(item, options.fields, { base, known, types: typesFor(item) })),
  );
  const items = mergeChunks(normalized);
  return { items, chunks: chunks.length };
}
