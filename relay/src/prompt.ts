// What the benchmarks measure of a step's prompt: the request as the planner builds it, its estimate
// and the room a context leaves (the package entry `@tandem/relay/prompt`).
export { stepRequest } from './agent/llm/step-request';
export { contextBudget, estimateRequestTokens, estimateTokens, IMAGE_TOKENS } from './model/index';
