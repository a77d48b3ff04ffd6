// How many tokens a prompt takes, and what an endpoint says when a prompt is too long for its model.
import { APIError } from 'openai';

/**
 * Characters per token the estimate assumes. English prose runs near 4 with GPT-style tokenizers;
 * snapshots (brackets, indices, URLs), JSON and other languages run lower, so 3.5 over-counts prose a
 * little: an estimate that is too high costs some page text, one that is too low costs a refusal
 * (after which the learnt context shrinks below what was refused).
 */
export const CHARS_PER_TOKEN = 3.5;

/** Tokens a chat message costs beyond its text (role, separators) in the common chat templates. */
const MESSAGE_OVERHEAD_TOKENS = 8;

/** The estimated tokens of a text: no tokenizer (no download, no per-model vocabulary), a fixed ratio. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Tokens of one screenshot in a message: OpenAI counts a 1280×800 image at detail "high" as 6 tiles of
 * 170 plus 85; other vision models are in the same range. Counted, never measured: the image's base64
 * says nothing about its tokens.
 */
export const IMAGE_TOKENS = 1105;

/** A message part's estimated tokens: its text, or IMAGE_TOKENS for an image. */
function partTokens(part: unknown): number {
  if (typeof part !== 'object' || part === null) return 0;
  const { type, text } = part as { type?: unknown; text?: unknown };
  if (type === 'image_url') return IMAGE_TOKENS;
  return typeof text === 'string' ? estimateTokens(text) : estimateTokens(JSON.stringify(part));
}

/** The estimated prompt tokens of a request body: every message's text and images, tools and response schema. */
export function estimateRequestTokens(body: {
  messages: readonly { content?: unknown }[];
  tools?: unknown;
  response_format?: unknown;
}): number {
  let tokens = 0;
  for (const message of body.messages) {
    const content = message.content;
    if (Array.isArray(content)) tokens += content.reduce((sum: number, part) => sum + partTokens(part), 0);
    else if (typeof content === 'string') tokens += estimateTokens(content);
    else if (content !== undefined && content !== null) tokens += estimateTokens(JSON.stringify(content));
    tokens += MESSAGE_OVERHEAD_TOKENS;
  }
  if (body.tools !== undefined) tokens += estimateTokens(JSON.stringify(body.tools));
  if (body.response_format !== undefined) tokens += estimateTokens(JSON.stringify(body.response_format));
  return tokens;
}

/** A refusal because the prompt (with the reply's reserve) is larger than the model's context. */
export interface ContextRefusal {
  /** The model's context in tokens, when the endpoint said it. */
  limit?: number | undefined;
}

/** Phrases that say the context is too small, from OpenAI, vLLM, llama.cpp, Ollama, LM Studio and proxies. */
const TOO_LONG =
  /maximum context length|context (?:length|size|window) of only|overflows|context[_ ]length[_ ]exceeded|exceeds? (?:the )?(?:available |maximum )?context|context (?:size|window) (?:has been |was )?exceeded|prompt is too long|input (?:length|is too long)|too many tokens|n_ctx|exceed_context_size|reduce the length of the messages/i;

/** Where the number of tokens is said: "maximum context length is 4096 tokens", "n_ctx": 4096, "context length of only 4096 tokens". */
const LIMIT_PATTERNS = [
  /maximum context length is (\d+)/i,
  /"?n_ctx"?\s*[:=]\s*(\d+)/i,
  /context (?:length|size|window) of (?:only )?(\d+)/i,
  /context (?:length|size|window) (?:is|=) (\d+)/i,
];

/**
 * Reads a context-length refusal from an error answer (any 4xx or 5xx: llama.cpp says it with 400 or
 * 500); undefined for any other error. The limit comes from the message or from the JSON body's fields.
 */
export function contextRefusal(error: unknown): ContextRefusal | undefined {
  if (!(error instanceof APIError) || error.status === undefined || error.status < 400) return undefined;
  const body = JSON.stringify(error.error ?? null);
  const text = `${error.message} ${body}`;
  if (!TOO_LONG.test(text)) return undefined;
  for (const pattern of LIMIT_PATTERNS) {
    const match = pattern.exec(text);
    const limit = match ? Number(match[1]) : Number.NaN;
    if (Number.isSafeInteger(limit) && limit > 0) return { limit };
  }
  return {};
}

/** Phrases of endpoints that take no images for this model (OpenAI, vLLM, llama.cpp, Ollama, LM Studio). */
const NO_IMAGES =
  /image[_ ]?url|image input|images? (?:are|is) not supported|does not support (?:image|vision|multimodal)|not a (?:vision|multimodal) model|vision is not|multimodal|content must be a string|expected (?:a )?string/i;

/** An error answer saying the model takes no images (only meaningful for a request that carried one). */
export function imageRefusal(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status === undefined || error.status < 400) return false;
  return NO_IMAGES.test(`${error.message} ${JSON.stringify(error.error ?? null)}`);
}
