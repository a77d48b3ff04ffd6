// What each model behind each endpoint was found to do, learnt from its answers and shared by every
// caller (planner, retrieve), so one model's quirk never changes how another model is asked.

/** How a caller asks for structured output: a forced tool call, response_format json_schema, or words. */
export type OutputMode = 'tools' | 'json_schema' | 'prompt';

/** The reply-length field: OpenAI's reasoning models refuse `max_tokens` and want the newer name. */
export type ReplyLimitField = 'max_tokens' | 'max_completion_tokens';

interface Learnt {
  /** Output modes this model refused or ignored. */
  refused: Set<OutputMode>;
  /** The context the endpoint said the model has (or less, after a refusal at that size). */
  contextTokens?: number;
  replyLimitField: ReplyLimitField;
  /** Whether the model took (true) or refused (false) an image in a message; undefined until tried. */
  images?: boolean;
}

export class CapabilityMemory {
  readonly #learnt = new Map<string, Learnt>();

  #entry(endpoint: string, model: string): Learnt {
    const key = `${endpoint}\n${model}`;
    let entry = this.#learnt.get(key);
    if (!entry) {
      entry = { refused: new Set(), replyLimitField: 'max_tokens' };
      this.#learnt.set(key, entry);
    }
    return entry;
  }

  /** The first of `accepted` the model has not refused; the last one when it refused them all. */
  outputMode(endpoint: string, model: string, accepted: readonly OutputMode[]): OutputMode {
    const { refused } = this.#entry(endpoint, model);
    const mode = accepted.find((m) => !refused.has(m)) ?? accepted.at(-1);
    if (mode === undefined) throw new Error('outputMode: no output mode accepted');
    return mode;
  }

  refuse(endpoint: string, model: string, ...modes: OutputMode[]): void {
    const { refused } = this.#entry(endpoint, model);
    for (const mode of modes) refused.add(mode);
  }

  contextTokens(endpoint: string, model: string): number | undefined {
    return this.#entry(endpoint, model).contextTokens;
  }

  /** Keeps the smallest context seen: a model never gets more room after it refused less. */
  learnContext(endpoint: string, model: string, tokens: number): void {
    const entry = this.#entry(endpoint, model);
    entry.contextTokens = Math.min(entry.contextTokens ?? Number.POSITIVE_INFINITY, Math.max(1, Math.floor(tokens)));
  }

  replyLimitField(endpoint: string, model: string): ReplyLimitField {
    return this.#entry(endpoint, model).replyLimitField;
  }

  useReplyLimitField(endpoint: string, model: string, field: ReplyLimitField): void {
    this.#entry(endpoint, model).replyLimitField = field;
  }

  acceptsImages(endpoint: string, model: string): boolean | undefined {
    return this.#entry(endpoint, model).images;
  }

  /** What an answer showed: a refusal is kept; an image that went through is remembered until one fails. */
  learnImages(endpoint: string, model: string, accepted: boolean): void {
    const entry = this.#entry(endpoint, model);
    if (entry.images !== false) entry.images = accepted;
  }
}
