// The model module: the only code that talks to an OpenAI-compatible endpoint (planner and retrieve use it).
export type { OutputMode } from './capabilities';
export { CHARS_PER_TOKEN, estimateRequestTokens, estimateTokens, IMAGE_TOKENS } from './context';
export { ModelError } from './errors';
export { modelClientFrom } from './from-config';
export {
  type Budget,
  type ChatAnswer,
  type ChatBody,
  type ChatRequest,
  contextBudget,
  emptyUsage,
  ModelClient,
  type ModelClientOptions,
  type ModelTier,
  type Usage,
} from './model';
