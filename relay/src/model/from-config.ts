import type { Config } from '../config';
import type { Logger } from '../logger';
import { ModelClient } from './model';

/** The relay's one model client, from its settings (used by the planner and by retrieve). */
export function modelClientFrom(config: Config, logger: Logger): ModelClient {
  return new ModelClient({
    baseURL: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    timeoutMs: config.TANDEM_MODEL_TIMEOUT_MS,
    maxRetries: config.TANDEM_MODEL_MAX_RETRIES,
    output: config.TANDEM_MODEL_OUTPUT,
    contextTokens: config.TANDEM_MODEL_CONTEXT_TOKENS,
    maxTokens: config.TANDEM_MODEL_MAX_TOKENS,
    logger,
  });
}
