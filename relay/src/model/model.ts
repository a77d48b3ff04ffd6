// The one place that talks to an OpenAI-compatible endpoint: the client, the output-mode fallback and
// the context budget learnt per (endpoint, model), token metering and cancellation for every call.
import OpenAI, { APIError } from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { Logger } from '../logger';
import { CapabilityMemory, type OutputMode } from './capabilities';
import { contextRefusal, estimateRequestTokens, imageRefusal } from './context';
import { type CallContext, isUnsupportedOutput, ModelError, notACompletion, toModelError } from './errors';

/** The two model tiers a caller picks from (TANDEM_MODEL_FAST / TANDEM_MODEL_STANDARD). */
export type ModelTier = 'fast' | 'standard';

/** Tokens spent by model calls; every call adds to the caller's. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

export const emptyUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 });

export interface ModelClientOptions {
  /** OpenAI-compatible base URL ending in /v1; the openai package's default (OPENAI_BASE_URL or OpenAI) when absent. */
  baseURL?: string | undefined;
  apiKey?: string | undefined;
  /** Per request, before the client's retries. */
  timeoutMs: number;
  /** Retries of 408/409/429/5xx and timeouts, with backoff. */
  maxRetries: number;
  /** `auto` starts with the caller's first output mode and falls back; a mode pins it. */
  output: 'auto' | OutputMode;
  /** The models' context in tokens, per tier (TANDEM_MODEL_CONTEXT_TOKENS); learnt from refusals when absent. */
  contextTokens?: Partial<Record<ModelTier, number>> | undefined;
  /** The most tokens a reply may take (TANDEM_MODEL_MAX_TOKENS); reserved out of the context. */
  maxTokens: number;
  logger: Logger;
}

/** The prompt's room: `promptTokens` for the messages (undefined: no limit known), `replyTokens` for the answer. */
export interface Budget {
  promptTokens: number | undefined;
  replyTokens: number;
}

/** A request without the parts the model client owns (model, reply limit). */
export type ChatBody = Omit<ChatCompletionCreateParamsNonStreaming, 'model' | 'max_tokens' | 'max_completion_tokens'>;

export interface ChatRequest {
  model: string;
  tier: ModelTier;
  /** The output modes the caller can ask in, preferred first; the memory skips those the model refused. */
  accepts: readonly OutputMode[];
  /**
   * The request in `mode`, its messages fitted to `promptTokens` as well as the caller can; with an
   * image only when `images` (the caller offered images and the model is not known to refuse them).
   */
  build(mode: OutputMode, promptTokens: number | undefined, images: boolean): ChatBody;
  /**
   * The caller would send an image: `try` when the model may refuse it (learnt, then asked again
   * without), `require` when a refusal fails the call (the operator asked for vision).
   */
  images?: 'try' | 'require' | undefined;
  signal?: AbortSignal | undefined;
  /** Receives the tokens of every call made for this request (refused output modes and retries included). */
  usage: Usage;
}

export interface ChatAnswer {
  completion: ChatCompletion;
  mode: OutputMode;
}

/** A reply never gets less than this, however small the context: a decision needs some room. */
const MIN_REPLY_TOKENS = 256;
/** Of a known context, at most this share is reserved for the reply (a decision is a few hundred tokens). */
const REPLY_SHARE = 0.125;
/** Asking again after a context refusal: at most this many times, each with a smaller prompt. */
const MAX_CONTEXT_RETRIES = 3;
/** After a refusal at a size the limit should have allowed (the estimate was low), the limit shrinks by this. */
const SHRINK = 0.8;

/** A context's split between prompt and reply: the reply gets `maxTokens`, at most an eighth of the context. */
export function contextBudget(contextTokens: number | undefined, maxTokens: number): Budget {
  if (contextTokens === undefined) return { promptTokens: undefined, replyTokens: maxTokens };
  const replyTokens = Math.max(MIN_REPLY_TOKENS, Math.min(maxTokens, Math.floor(contextTokens * REPLY_SHARE)));
  return { promptTokens: Math.max(0, contextTokens - replyTokens), replyTokens };
}

/** Output modes after `mode`, in fallback order. */
const FALLBACK: Record<OutputMode, OutputMode | undefined> = {
  tools: 'json_schema',
  json_schema: 'prompt',
  prompt: undefined,
};

/**
 * The client retries 408/409/429/5xx and timeouts itself with exponential backoff, honouring
 * `retry-after`. Local servers (Ollama, llama.cpp, LM Studio) want no key, but the client insists on
 * one, so a placeholder stands in when neither the option nor OPENAI_API_KEY gives one.
 */
function createClient(options: ModelClientOptions): OpenAI {
  return new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey || process.env.OPENAI_API_KEY || 'no-key',
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    logLevel: 'off',
  });
}

export class ModelClient {
  readonly #client: OpenAI;
  readonly #options: ModelClientOptions;
  readonly #memory = new CapabilityMemory();
  readonly #log: Logger;

  constructor(options: ModelClientOptions) {
    this.#options = options;
    this.#client = createClient(options);
    this.#log = options.logger.child({ component: 'model' });
  }

  get baseURL(): string {
    return this.#client.baseURL;
  }

  /** The output mode the next call for `model` starts with, among `accepts`. */
  outputMode(model: string, accepts: readonly OutputMode[] = ['tools', 'json_schema', 'prompt']): OutputMode {
    if (this.#pinned(accepts)) return this.#options.output as OutputMode;
    return this.#memory.outputMode(this.baseURL, model, accepts);
  }

  /**
   * The model answered in `mode` but ignored it (no tool call despite tool_choice): it and the structured
   * modes after it are not asked for again for this model. Other models keep theirs.
   */
  ignored(model: string, mode: OutputMode): void {
    if (this.#options.output !== 'auto') return;
    const modes: OutputMode[] = [];
    for (let m: OutputMode | undefined = mode; m && m !== 'prompt'; m = FALLBACK[m]) modes.push(m);
    this.#log.info(
      { model, from: mode, to: 'prompt' },
      'the model ignored the output mode; asking in words from now on',
    );
    this.#memory.refuse(this.baseURL, model, ...modes);
  }

  /** The room for a prompt to `model`: the configured or learnt context, less the reply's reserve. */
  budget(tier: ModelTier, model: string): Budget {
    const configured = this.#options.contextTokens?.[tier];
    const learnt = this.#memory.contextTokens(this.baseURL, model);
    const context = Math.min(configured ?? Number.POSITIVE_INFINITY, learnt ?? Number.POSITIVE_INFINITY);
    return contextBudget(Number.isFinite(context) ? context : undefined, this.#options.maxTokens);
  }

  context(model: string): CallContext {
    return {
      baseURL: this.baseURL,
      model,
      timeoutMs: this.#options.timeoutMs,
      maxRetries: this.#options.maxRetries,
    };
  }

  /**
   * One chat completion. In `auto`, an output mode the endpoint refuses is remembered for this model and
   * the next accepted one is tried; a prompt too long for the model's context teaches the budget and is
   * built again smaller. Failures leave as ModelError.
   */
  async complete(request: ChatRequest): Promise<ChatAnswer> {
    const { model } = request;
    let mode = this.outputMode(model, request.accepts);
    let contextRetries = 0;
    let refusedSize = Number.POSITIVE_INFINITY;
    let images = request.images !== undefined && this.acceptsImages(model) !== false;
    for (;;) {
      const budget = this.budget(request.tier, model);
      const field = this.#memory.replyLimitField(this.baseURL, model);
      const body: ChatCompletionCreateParamsNonStreaming = {
        ...request.build(mode, budget.promptTokens, images),
        model,
        [field]: budget.replyTokens,
      };
      const size = estimateRequestTokens(body);
      const started = performance.now();
      let completion: ChatCompletion;
      try {
        completion = await this.#client.chat.completions.create(body, { signal: request.signal });
      } catch (error) {
        const ms = Math.round(performance.now() - started);
        this.#log.debug(
          { model, mode, ms, promptEstimate: size, error: (error as Error).message },
          'model call failed',
        );
        if (images && imageRefusal(error)) {
          this.#memory.learnImages(this.baseURL, model, false);
          if (request.images === 'require') throw this.#noImages(model, error);
          this.#log.info({ model, error: (error as Error).message }, 'the model takes no images; asking without');
          images = false;
          continue;
        }
        const refusal = contextRefusal(error);
        if (refusal) {
          if (contextRetries >= MAX_CONTEXT_RETRIES || size >= refusedSize) throw this.#tooLong(model, size, error);
          this.#learnContext(model, refusal.limit, size + budget.replyTokens, budget);
          contextRetries++;
          refusedSize = size;
          continue;
        }
        const otherField = field === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
        if (names(error, field) && names(error, otherField)) {
          this.#memory.useReplyLimitField(this.baseURL, model, otherField);
          continue;
        }
        const next = this.#next(mode, request.accepts);
        if (next && isUnsupportedOutput(error)) {
          this.#log.info(
            { model, from: mode, to: next, error: (error as Error).message },
            'output mode refused; falling back',
          );
          this.#memory.refuse(this.baseURL, model, mode);
          mode = next;
          continue;
        }
        throw toModelError(error, this.context(model));
      }
      this.#meter(request.usage, completion, model, mode, Math.round(performance.now() - started));
      if (images && hasImage(body)) this.#memory.learnImages(this.baseURL, model, true);
      const unusable = notACompletion(completion, this.context(model));
      if (unusable) throw unusable;
      return { completion, mode };
    }
  }

  /** Whether `model` took an image before (true), refused one (false), or was never sent one. */
  acceptsImages(model: string): boolean | undefined {
    return this.#memory.acceptsImages(this.baseURL, model);
  }

  #noImages(model: string, error: unknown): ModelError {
    const result = new ModelError(
      `model "${model}" at ${this.baseURL} does not take images (${(error as Error).message}); TANDEM_MODEL_VISION=on needs a vision model: use one, or set TANDEM_MODEL_VISION to auto or off`,
      false,
    );
    result.cause = error;
    return result;
  }

  /** TANDEM_MODEL_OUTPUT names a mode this caller can ask in: no fallback, no learning. */
  #pinned(accepts: readonly OutputMode[]): boolean {
    const { output } = this.#options;
    return output !== 'auto' && accepts.includes(output);
  }

  /** The accepted output mode after `mode`, when `auto` may fall back. */
  #next(mode: OutputMode, accepts: readonly OutputMode[]): OutputMode | undefined {
    if (this.#pinned(accepts)) return undefined;
    const i = accepts.indexOf(mode);
    return i >= 0 ? accepts[i + 1] : undefined;
  }

  /**
   * A refusal with a limit sets the context to it; one without, or at a size the known limit should
   * have allowed (the estimate ran low for this model's tokenizer), shrinks it below what was sent.
   */
  #learnContext(model: string, limit: number | undefined, sent: number, budget: Budget): void {
    const known = budget.promptTokens === undefined ? undefined : budget.promptTokens + budget.replyTokens;
    const tokens = limit !== undefined && (known === undefined || limit < known) ? limit : Math.floor(sent * SHRINK);
    this.#memory.learnContext(this.baseURL, model, tokens);
    this.#log.info(
      { model, contextTokens: this.#memory.contextTokens(this.baseURL, model) },
      'prompt too long for the model; context learnt, asking again with a shorter prompt',
    );
  }

  #tooLong(model: string, size: number, error: unknown): ModelError {
    const refused = toModelError(error, this.context(model)).message;
    const result = new ModelError(
      `${refused} (the prompt was about ${size} tokens and cannot be shortened further; use a model with a larger context, or set TANDEM_MODEL_CONTEXT_TOKENS and TANDEM_MODEL_MAX_TOKENS to what it has)`,
      false,
    );
    result.cause = error;
    return result;
  }

  #meter(usage: Usage, completion: ChatCompletion, model: string, mode: OutputMode, ms: number): void {
    const promptTokens = completion.usage?.prompt_tokens ?? 0;
    const completionTokens = completion.usage?.completion_tokens ?? 0;
    const cachedTokens = completion.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    usage.promptTokens += promptTokens;
    usage.completionTokens += completionTokens;
    usage.cachedTokens += cachedTokens;
    this.#log.debug({ model, mode, ms, promptTokens, completionTokens, cachedTokens }, 'model call');
  }
}

function hasImage(body: ChatCompletionCreateParamsNonStreaming): boolean {
  return body.messages.some(
    (m) => Array.isArray(m.content) && m.content.some((part) => (part as { type?: string }).type === 'image_url'),
  );
}

/** The error answer names a request field (an unsupported-parameter refusal). */
function names(error: unknown, field: string): boolean {
  return error instanceof APIError && error.status === 400 && error.message.includes(field);
}
