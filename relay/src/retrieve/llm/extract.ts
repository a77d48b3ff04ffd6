/** fast/standard mode: the model reads a Markdown rendering of the page and returns items per a JSON schema. */
import type { PageContent } from '@tandem/shared';
import {
  CHARS_PER_TOKEN,
  type ChatBody,
  estimateRequestTokens,
  type ModelClient,
  ModelError,
  type ModelTier,
  type OutputMode,
  type Usage,
} from '../../model/index';
import { type FieldType, fieldTypes } from '../heuristic/hints';
import { modelMarkdown } from '../markdown';
import { chunkMarkdown, DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP_CHARS, mapLimit, mergeChunks } from './chunks';
import { normalizeItem, pageUrls } from './normalize';
import { itemsSchema, SYSTEM_PROMPT, userPrompt } from './schema';

type Item = Record<string, unknown>;

/** Chunks extracted at once per call; more would only queue at the endpoint. */
const CHUNK_CONCURRENCY = 4;

/** Retrieve asks for its items with response_format json_schema, or with the schema in the prompt. */
const OUTPUT_MODES: readonly OutputMode[] = ['json_schema', 'prompt'];
/** Re-chunking after the endpoint taught a smaller context: at most this many times. */
const MAX_RECHUNKS = 2;

export interface ModelExtractOptions {
  client: ModelClient;
  model: string;
  tier: ModelTier;
  signal?: AbortSignal | undefined;
  /** Receives every call's tokens. */
  usage: Usage;
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

function requestBody(
  options: ModelExtractOptions,
  markdown: string,
  part: number,
  parts: number,
  mode: OutputMode,
): ChatBody {
  const { schema, strict } = itemsSchema(options.fields, options.types);
  const schemaInPrompt = mode === 'prompt';
  return {
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
    // Endpoints without structured output (older vLLM, llama.cpp builds) get the schema in the prompt.
    ...(schemaInPrompt
      ? {}
      : { response_format: { type: 'json_schema' as const, json_schema: { name: 'items', schema, strict } } }),
  };
}

async function complete(options: ModelExtractOptions, markdown: string, part: number, parts: number): Promise<Item[]> {
  const { completion } = await options.client.complete({
    model: options.model,
    tier: options.tier,
    accepts: OUTPUT_MODES,
    build: (mode) => requestBody(options, markdown, part, parts, mode),
    signal: options.signal,
    usage: options.usage,
  });
  return parseItems(completion.choices[0]?.message?.content ?? '');
}

/**
 * The characters of Markdown one chunk may hold: what was asked (or the default), and no more than the
 * model's context leaves after the prompt's own words and the schema.
 */
function chunkChars(options: ModelExtractOptions): number {
  const asked = options.chunkChars ?? DEFAULT_CHUNK_CHARS;
  const { promptTokens } = options.client.budget(options.tier, options.model);
  if (promptTokens === undefined) return asked;
  const mode = options.client.outputMode(options.model, OUTPUT_MODES);
  const overhead = estimateRequestTokens(requestBody(options, '', 1, 1, mode));
  return Math.max(MIN_CHUNK_CHARS, Math.min(asked, (promptTokens - overhead) * CHARS_PER_TOKEN));
}

/** However small the context, a chunk holds this much (a smaller one would say nothing). */
const MIN_CHUNK_CHARS = 500;

/** Extracts the page's items with the model: chunked, in parallel, merged in page order. */
export async function extractWithModel(options: ModelExtractOptions): Promise<{ items: Item[]; chunks: number }> {
  const markdown = modelMarkdown(options.content);
  let chunks: string[];
  let results: Item[][];
  for (let attempt = 0; ; attempt++) {
    const size = chunkChars(options);
    chunks = chunkMarkdown(
      markdown,
      size,
      Math.min(options.overlapChars ?? DEFAULT_OVERLAP_CHARS, Math.floor(size / 4)),
    );
    try {
      const current = chunks;
      results = await mapLimit(current, CHUNK_CONCURRENCY, (chunk, i) =>
        complete(options, chunk, i + 1, current.length),
      );
      break;
    } catch (error) {
      // A refusal that taught the model's context: chunks that fit it are made and asked for again.
      if (!(error instanceof ModelError) || attempt >= MAX_RECHUNKS || chunkChars(options) >= size) throw error;
    }
  }
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
