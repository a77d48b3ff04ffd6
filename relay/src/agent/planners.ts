import type { Config } from '../config';
import type { Logger } from '../logger';
import { type ModelClient, modelClientFrom } from '../model/index';
import { BuiltinPlanner } from './builtin/index';
import { LlmPlanner } from './llm/index';
import type { Planner } from './planner';

/** Thrown at start when TANDEM_PLANNER=llm but no model is configured. */
export class PlannerConfigError extends Error {}

/**
 * The planner for this relay: TANDEM_PLANNER=builtin or llm, or auto: the LLM planner when an endpoint
 * (OPENAI_BASE_URL or OPENAI_API_KEY) and a model are configured, else the built-in planner, so a fresh
 * install works with no model at all.
 */
export function createPlanner(
  config: Config,
  logger: Logger,
  client: ModelClient = modelClientFrom(config, logger),
): Planner {
  const fast = config.TANDEM_MODEL_FAST ?? config.TANDEM_MODEL_STANDARD;
  const standard = config.TANDEM_MODEL_STANDARD ?? config.TANDEM_MODEL_FAST;
  const endpoint = config.OPENAI_BASE_URL !== undefined || config.OPENAI_API_KEY !== undefined;
  const useLlm =
    config.TANDEM_PLANNER === 'llm' || (config.TANDEM_PLANNER === 'auto' && endpoint && fast !== undefined);
  if (!useLlm) {
    logger.info('planner: built-in (no model configured)');
    return new BuiltinPlanner();
  }
  if (!fast || !standard) {
    throw new PlannerConfigError(
      'TANDEM_PLANNER=llm needs a model: set TANDEM_MODEL_FAST and/or TANDEM_MODEL_STANDARD (and OPENAI_BASE_URL / OPENAI_API_KEY for the endpoint).',
    );
  }
  logger.info({ baseURL: config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1', fast, standard }, 'planner: LLM');
  return new LlmPlanner({ client, models: { fast, standard }, vision: config.TANDEM_MODEL_VISION, logger });
}
