// The LLM planner: any OpenAI-compatible endpoint, one JSON decision per step.
export { DEFAULT_LLM_MAX_RETRIES, DEFAULT_LLM_TIMEOUT_MS, LlmPlanner, type LlmPlannerOptions } from './planner';
export type { OutputMode } from './prompts';
