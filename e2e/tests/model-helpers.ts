import type { RecordedRequest } from '../fixtures/index';

// The scripted model's side of the console tests: decisions in the planner's format, and what it was sent.

/** A planner decision: the model's JSON answer with its goal, memory and actions, at a fixed token cost. */
export const decision = (actions: unknown[], next_goal = 'work on the task') => ({
  kind: 'json' as const,
  value: { memory: 'notes', next_goal, actions },
  usage: { prompt_tokens: 1000, completion_tokens: 50 },
});

/** All text the model was sent in one request. */
export const promptOf = (request: RecordedRequest | undefined): string =>
  (request?.body?.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');

/** The index the page snapshot in a prompt gives the element matching `pattern` (e.g. /<button>Send/). */
export function indexIn(request: RecordedRequest, pattern: RegExp): number {
  const all = promptOf(request);
  const snapshot = all.slice(all.lastIndexOf('<page_snapshot>'));
  const match = new RegExp(`\\[(\\d+)\\]${pattern.source}`).exec(snapshot);
  if (!match) throw new Error(`no element ${pattern} in the prompt:\n${snapshot}`);
  return Number(match[1]);
}
