import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Logger } from '../../logger';
import {
  type PlanDecision,
  type PlanInput,
  type Planner,
  PlannerError,
  UnusableDecision,
  type Usage,
} from '../planner';
import { type CallContext, createClient, isUnsupportedOutput, notACompletion, toPlannerError } from './client';
import { type ParseResult, parseDecisionText, parseToolCalls } from './parse';
import { type OutputMode, repairMessage, stepMessage, systemPrompt } from './prompts';
import { DECISION_JSON_SCHEMA, DECISION_TOOL, STRICT_DECISION_JSON_SCHEMA } from './schema';

export interface LlmPlannerOptions {
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
  logger: Logger;
}

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
export const DEFAULT_LLM_MAX_RETRIES = 2;

/** In `auto`, where to go when an endpoint will not do a mode. */
const FALLBACK: Record<OutputMode, OutputMode | undefined> = {
  tools: 'json_schema',
  json_schema: 'prompt',
  prompt: undefined,
};

/** One request and the model's reply to it, read as a decision. */
interface Exchange {
  mode: OutputMode;
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
  readonly #client: OpenAI;
  readonly #models: { fast: string; standard: string };
  readonly #auto: boolean;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #log: Logger;
  #mode: OutputMode;

  constructor(options: LlmPlannerOptions) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    this.#maxRetries = options.maxRetries ?? DEFAULT_LLM_MAX_RETRIES;
    this.#client = createClient({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      timeoutMs: this.#timeoutMs,
      maxRetries: this.#maxRetries,
    });
    this.#models = options.models;
    const output = options.output ?? 'auto';
    this.#auto = output === 'auto';
    this.#mode = output === 'auto' ? 'tools' : output;
    this.#log = options.logger.child({ component: 'llm-planner' });
  }

  /** The output mode the next step starts with (in `auto`, after any fallback so far). */
  get outputMode(): OutputMode {
    return this.#mode;
  }

  async plan(input: PlanInput): Promise<PlanDecision> {
    const model = this.#models[input.mode];
    const usage: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
    let exchange = await this.#firstExchange(input, model, usage);
    if (!exchange.result.ok) {
      const errors = exchange.result.errors;
      this.#log.debug({ model, mode: exchange.mode, errors }, 'model reply unusable; asking for a repair');
      const messages = [...exchange.messages, ...repairTurn(exchange, errors)];
      const repaired = await this.#exchange(exchange.mode, messages, input, model, usage, false);
      exchange = { mode: exchange.mode, messages, message: repaired.message, result: repaired.result };
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

  /** The step's first request, falling back through output modes in `auto`. */
  async #firstExchange(input: PlanInput, model: string, usage: Usage): Promise<Exchange> {
    const user = stepMessage(input);
    let mode = this.#mode;
    for (;;) {
      const messages: ChatCompletionMessageParam[] = [
        { role: 'system', content: systemPrompt(mode) },
        { role: 'user', content: user },
      ];
      const next = FALLBACK[mode];
      let reply: Reply;
      try {
        reply = await this.#exchange(mode, messages, input, model, usage, this.#auto && next !== undefined);
      } catch (error) {
        if (next === undefined || error instanceof PlannerError) throw error;
        this.#log.info(
          { model, from: mode, to: next, error: (error as Error).message },
          'output mode refused; falling back',
        );
        mode = next;
        continue;
      }
      if (this.#auto && reply.noToolCall) {
        // The endpoint ignores tool_choice: ask in words from now on. A usable text answer still counts.
        this.#log.info({ model, from: mode, to: 'prompt' }, 'no tool call in the reply; falling back');
        this.#mode = 'prompt';
        if (reply.result.ok) return { mode, messages, ...reply };
        mode = 'prompt';
        continue;
      }
      if (this.#auto) this.#mode = mode;
      return { mode, messages, ...reply };
    }
  }

  /**
   * One request: sends it, adds its usage, logs it and reads the reply. Failures leave as PlannerError,
   * except, when `canFallBack`, the raw error of an endpoint that refuses the output mode.
   */
  async #exchange(
    mode: OutputMode,
    messages: ChatCompletionMessageParam[],
    input: PlanInput,
    model: string,
    usage: Usage,
    canFallBack: boolean,
  ): Promise<Reply> {
    const started = performance.now();
    let completion: ChatCompletion;
    try {
      completion = await this.#client.chat.completions.create(requestBody(mode, model, messages, input.temperature), {
        signal: input.signal,
      });
    } catch (error) {
      const ms = Math.round(performance.now() - started);
      this.#log.debug({ model, mode, ms, error: (error as Error).message }, 'model call failed');
      if (canFallBack && isUnsupportedOutput(error)) throw error;
      throw toPlannerError(error, this.#context(model));
    }
    const ms = Math.round(performance.now() - started);
    const promptTokens = completion.usage?.prompt_tokens ?? 0;
    const completionTokens = completion.usage?.completion_tokens ?? 0;
    const cachedTokens = completion.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    usage.promptTokens += promptTokens;
    usage.completionTokens += completionTokens;
    usage.cachedTokens += cachedTokens;
    this.#log.debug({ model, mode, ms, promptTokens, completionTokens, cachedTokens }, 'model call');
    const unusable = notACompletion(completion, this.#context(model));
    if (unusable) throw unusable;
    return readReply(mode, completion, model);
  }

  #context(model: string): CallContext {
    return { baseURL: this.#client.baseURL, model, timeoutMs: this.#timeoutMs, maxRetries: this.#maxRetries };
  }
}

function requestBody(
  mode: OutputMode,
  model: string,
  messages: ChatCompletionMessageParam[],
  temperature: number | undefined,
): ChatCompletionCreateParamsNonStreaming {
  const body: ChatCompletionCreateParamsNonStreaming = { model, messages };
  if (temperature !== undefined) body.temperature = temperature;
  if (mode === 'tools') {
    // One tool whose arguments are the whole decision, forced: memory, goal and several actions in one
    // call, with no reliance on parallel tool calls or tool_choice "required" (patchy on local servers).
    body.tools = [
      {
        type: 'function',
        function: {
          name: DECISION_TOOL,
          description: 'Submit your decision for this step: memory, next_goal and the actions to run.',
          parameters: DECISION_JSON_SCHEMA,
        },
      },
    ];
    body.tool_choice = { type: 'function', function: { name: DECISION_TOOL } };
  } else if (mode === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'decision', strict: true, schema: STRICT_DECISION_JSON_SCHEMA },
    };
  }
  return body;
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
