import type {
  ChatCompletion,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Logger } from '../../logger';
import {
  type ChatBody,
  IMAGE_TOKENS,
  ModelClient,
  ModelError,
  type ModelTier,
  type OutputMode,
} from '../../model/index';
import {
  type PlanDecision,
  type PlanInput,
  type Planner,
  PlannerError,
  UnusableDecision,
  type Usage,
} from '../planner';
import { type ParseResult, parseDecisionText, parseToolCalls } from './parse';
import { repairMessage } from './prompts';
import { MIN_TEXT_TOKENS_WITH_IMAGE, requestBody, type StepRequest, stepRequest } from './step-request';

export interface LlmPlannerOptions {
  /** The model client (shared with retrieve); built from the fields below when absent. */
  client?: ModelClient | undefined;
  /** OpenAI-compatible base URL ending in /v1; the openai package's default (OPENAI_BASE_URL or OpenAI) when absent. */
  baseURL?: string | undefined;
  apiKey?: string | undefined;
  /** The model for each `mode`. */
  models: { fast: string; standard: string };
  /** How the decision is asked for; `auto` starts with tools and falls back. Default `auto`. */
  output?: 'auto' | OutputMode | undefined;
  /**
   * Per request, before the client's retries. The relay passes TANDEM_MODEL_TIMEOUT_MS (default 60 s);
   * used directly, the class defaults to DEFAULT_LLM_TIMEOUT_MS (120 s: local models on big pages are slow).
   */
  timeoutMs?: number | undefined;
  /** Retries of 408/409/429/5xx and timeouts, with backoff. Default 2. */
  maxRetries?: number | undefined;
  /** The models' context per tier, when known; learnt from refusals otherwise. */
  contextTokens?: Partial<Record<ModelTier, number>> | undefined;
  /** Send each step's set-of-marks screenshot: `on`, `auto` (unless the model refused images), `off` (default). */
  vision?: 'auto' | 'on' | 'off' | undefined;
  /** The most tokens a reply may take. Default DEFAULT_MAX_TOKENS. */
  maxTokens?: number | undefined;
  logger: Logger;
}

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
export const DEFAULT_LLM_MAX_RETRIES = 2;
/** A decision is a few hundred tokens; this leaves room for long memory and done messages. */
export const DEFAULT_MAX_TOKENS = 4096;

const OUTPUT_MODES: readonly OutputMode[] = ['tools', 'json_schema', 'prompt'];

/** One request and the model's reply to it, read as a decision. */
interface Exchange {
  mode: OutputMode;
  /** Sent with the compact tool schema (the repair goes the same way). */
  compact: boolean;
  messages: ChatCompletionMessageParam[];
  message: ChatCompletionMessage;
  result: ParseResult;
}

/** The model's reply, read as a decision. */
interface Reply {
  message: ChatCompletionMessage;
  result: ParseResult;
  /** Tools mode, and the reply holds no tool call (the endpoint ignored tool_choice). */
  noToolCall: boolean;
}

/** A planner that asks a language model behind any OpenAI-compatible endpoint. */
export class LlmPlanner implements Planner {
  readonly name = 'llm' as const;
  readonly #client: ModelClient;
  readonly #models: { fast: string; standard: string };
  readonly #log: Logger;
  readonly #vision: 'auto' | 'on' | 'off';

  constructor(options: LlmPlannerOptions) {
    this.#vision = options.vision ?? 'off';
    this.#client =
      options.client ??
      new ModelClient({
        baseURL: options.baseURL,
        apiKey: options.apiKey,
        timeoutMs: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
        maxRetries: options.maxRetries ?? DEFAULT_LLM_MAX_RETRIES,
        output: options.output ?? 'auto',
        contextTokens: options.contextTokens,
        maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
        logger: options.logger,
      });
    this.#models = options.models;
    this.#log = options.logger.child({ component: 'llm-planner' });
  }

  /** The output mode the next step of `mode` starts with (in `auto`, after what its model taught so far). */
  outputMode(mode: ModelTier = 'fast'): OutputMode {
    return this.#client.outputMode(this.#models[mode], OUTPUT_MODES);
  }

  async plan(input: PlanInput): Promise<PlanDecision> {
    const model = this.#models[input.mode];
    const usage: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
    try {
      return await this.#plan(input, model, usage);
    } catch (error) {
      if (error instanceof ModelError) {
        const planError = new PlannerError(error.message, error.retriable, usage);
        planError.cause = error;
        throw planError;
      }
      throw error;
    }
  }

  async #plan(input: PlanInput, model: string, usage: Usage): Promise<PlanDecision> {
    let exchange = await this.#firstExchange(input, model, usage);
    if (!exchange.result.ok) {
      const errors = exchange.result.errors;
      this.#log.debug({ model, mode: exchange.mode, errors }, 'model reply unusable; asking for a repair');
      const messages = [...exchange.messages, ...repairTurn(exchange, errors)];
      const { mode, compact } = exchange;
      const build = () => requestBody(mode, messages, input.temperature, compact);
      const repaired = await this.#exchange([mode], build, input, model, usage);
      exchange = { ...exchange, messages, message: repaired.message, result: repaired.result };
      if (!exchange.result.ok) {
        throw new UnusableDecision(
          `model "${model}" did not produce a valid decision, even after a repair request: ${exchange.result.errors.join(' ')}`,
          usage,
        );
      }
    }
    const { decision, notes } = exchange.result;
    if (notes.length) this.#log.debug({ model, notes }, 'decision adjusted');
    return {
      memory: decision.memory || undefined,
      nextGoal: decision.nextGoal || undefined,
      actions: decision.actions,
      usage,
      model,
      ...(notes.length ? { notes } : {}),
    };
  }

  /** The step's first request; the model client falls back through output modes the endpoint refuses. */
  async #firstExchange(input: PlanInput, model: string, usage: Usage): Promise<Exchange> {
    let sent: StepRequest | undefined;
    const image = await this.#image(input, model);
    const build = (mode: OutputMode, promptTokens: number | undefined, images = false): ChatBody => {
      sent = stepRequest(input, mode, promptTokens, images ? image : undefined);
      return sent.body;
    };
    const images = image === undefined ? undefined : this.#vision === 'on' ? 'require' : 'try';
    const exchange = (reply: Reply & { mode: OutputMode }): Exchange => ({
      mode: reply.mode,
      compact: sent?.compact ?? false,
      messages: sent?.body.messages ?? [],
      message: reply.message,
      result: reply.result,
    });
    const reply = await this.#exchange(OUTPUT_MODES, build, input, model, usage, images);
    if (reply.noToolCall) {
      // The endpoint ignores tool_choice: this model is asked in words from now on. A usable text answer still counts.
      this.#client.ignored(model, reply.mode);
      if (reply.result.ok || this.#client.outputMode(model, OUTPUT_MODES) !== 'prompt') return exchange(reply);
      return exchange(await this.#exchange(['prompt'], build, input, model, usage, images));
    }
    return exchange(reply);
  }

  /**
   * The step's set-of-marks screenshot as a data URL, when vision is on (or auto and the model has not
   * refused images). A capture that fails costs the step its image, not the step.
   */
  async #image(input: PlanInput, model: string): Promise<string | undefined> {
    if (this.#vision === 'off' || !input.screenshot) return undefined;
    if (this.#vision === 'auto' && this.#client.acceptsImages(model) === false) return undefined;
    // A context with no room for an image and some text would drop it anyway: no capture for nothing.
    const room = this.#client.budget(input.mode, model).promptTokens;
    if (room !== undefined && room < IMAGE_TOKENS + MIN_TEXT_TOKENS_WITH_IMAGE) return undefined;
    try {
      const jpeg = await input.screenshot();
      return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    } catch (error) {
      this.#log.debug({ err: error }, 'screenshot for the model failed; the step goes on without it');
      return undefined;
    }
  }

  /** One request through the model client, read as a decision. */
  async #exchange(
    accepts: readonly OutputMode[],
    build: (mode: OutputMode, promptTokens: number | undefined, images: boolean) => ChatBody,
    input: PlanInput,
    model: string,
    usage: Usage,
    images?: 'try' | 'require',
  ): Promise<Reply & { mode: OutputMode }> {
    const { completion, mode } = await this.#client.complete({
      model,
      tier: input.mode,
      accepts,
      build,
      images,
      signal: input.signal,
      usage,
    });
    return { mode, ...readReply(mode, completion, model) };
  }
}

function readReply(mode: OutputMode, completion: ChatCompletion, model: string): Reply {
  const choice = completion.choices[0];
  if (!choice?.message) {
    throw new PlannerError(`model "${model}" answered with a choice that holds no message`, false);
  }
  const { message } = choice;
  if (message.refusal) throw new UnusableDecision(`model "${model}" refused: ${message.refusal}`);
  const calls = (message.tool_calls ?? []).flatMap((call) => (call.type === 'function' ? [call.function] : []));
  const noToolCall = mode === 'tools' && calls.length === 0;
  let result = calls.length > 0 ? parseToolCalls(calls) : parseDecisionText(message.content ?? '');
  if (!result.ok && choice.finish_reason === 'length') {
    result = {
      ok: false,
      errors: [...result.errors, 'The reply was cut off at the token limit: keep memory short and the decision small.'],
    };
  }
  return { message, result, noToolCall };
}

/** The model's unusable reply and the errors, as the next turn of the conversation. */
function repairTurn(exchange: Exchange, errors: string[]): ChatCompletionMessageParam[] {
  const text = repairMessage(errors, exchange.mode);
  const calls = exchange.message.tool_calls ?? [];
  if (calls.length === 0) {
    return [
      { role: 'assistant', content: exchange.message.content ?? '' },
      { role: 'user', content: text },
    ];
  }
  // Every tool call needs its answer; the errors go with the first.
  return [
    { role: 'assistant', content: exchange.message.content ?? null, tool_calls: calls },
    ...calls.map(
      (call, i): ChatCompletionMessageParam => ({
        role: 'tool',
        tool_call_id: call.id,
        content: i === 0 ? text : 'Not used.',
      }),
    ),
  ];
}
