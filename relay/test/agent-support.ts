// What the agent's HTTP tests share: a relay whose planner talks to the scripted model server, and
// helpers to read the prompts it sent and the streams it answered.
import {
  type FixtureSite,
  type ModelServer,
  type RecordedRequest,
  startFixtureSite,
  startModelServer,
} from '@tandem/e2e/fixtures';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { AgentSession } from '../src/agent/conversation';
import { memoryLogger, startTestRelay, type TestRelay } from './support';

export interface AgentHarness {
  site: FixtureSite;
  model: ModelServer;
  relay: TestRelay;
  /** Every line the relay logged, parsed. */
  logs: Record<string, unknown>[];
  /** The live session `id` of the test key's account. */
  session(id: string): AgentSession;
  /** Creates a session on a fixture page through the API; returns its id. */
  createSession(path: string): Promise<string>;
}

/** Starts the fixture site, the model server and a relay using them (prompt mode, no retries) for the file. */
export function useAgentRelay(): AgentHarness {
  const h = {} as AgentHarness;
  beforeAll(async () => {
    [h.site, h.model] = await Promise.all([
      startFixtureSite(),
      startModelServer({ models: ['fast-model', 'standard-model'] }),
    ]);
    const { logger, lines } = memoryLogger();
    h.logs = lines;
    h.relay = await startTestRelay(
      {
        OPENAI_BASE_URL: h.model.url,
        OPENAI_API_KEY: 'sk-test',
        TANDEM_MODEL_FAST: 'fast-model',
        TANDEM_MODEL_STANDARD: 'standard-model',
        TANDEM_MODEL_OUTPUT: 'prompt',
        TANDEM_MODEL_MAX_RETRIES: 0,
        TANDEM_START_URL: `${h.site.url}/index.html`,
      },
      { logger },
    );
    const accountId = (await h.relay.services.store.apiKeys.resolve(h.relay.key))!.accountId;
    h.session = (id) => h.relay.services.sessions.get(accountId, id);
    h.createSession = async (path) => {
      const res = await h.relay.api('POST', '/v1/web/session', { body: { url: `${h.site.url}${path}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.session_id as string;
    };
  });
  afterEach(async () => {
    await h.relay.services.sessions.closeAll();
    h.model.reset();
  });
  afterAll(async () => {
    await h.relay?.close();
    await Promise.all([h.site?.close(), h.model?.close()]);
  });
  return h;
}

/** All text the model was sent in one request. */
export const promptOf = (request: RecordedRequest | undefined) =>
  (request?.body?.messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');

/** The index the snapshot in the latest prompt gives an element matching `pattern` (e.g. /<input[^>]*Email/). */
export function indexIn(request: RecordedRequest, pattern: RegExp): number {
  // Only the page snapshot: the system prompt has examples with indices too.
  const all = promptOf(request);
  const prompt = all.slice(all.lastIndexOf('<page_snapshot>'));
  const match = new RegExp(`\\[(\\d+)\\]${pattern.source}`).exec(prompt);
  if (!match) throw new Error(`no element ${pattern} in the prompt:\n${prompt}`);
  return Number(match[1]);
}

/** A model reply in the decision format, with fixed token usage. */
export const decision = (actions: unknown[], next_goal = 'work on the task', memory = 'notes') => ({
  kind: 'json' as const,
  value: { memory, next_goal, actions },
  usage: { prompt_tokens: 1000, completion_tokens: 50, cached_tokens: 800 },
});

/** Reads an SSE response with a real SSE parser; returns the data payloads in order. */
export async function readStream(response: Response, onMessage?: (data: string) => void): Promise<string[]> {
  const messages: string[] = [];
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      messages.push(event.data);
      onMessage?.(event.data);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
    parser.feed(decoder.decode(chunk, { stream: true }));
  return messages;
}

/** Starts a streamed step (POST /v1/web/session/{id} with stream: true). */
export function streamStep(h: AgentHarness, id: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${h.relay.url}/v1/web/session/${id}`, {
    method: 'POST',
    headers: { X_SERVICE_API_KEY: h.relay.key, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
}

/** A promise with its resolve function outside, to hold a scripted reply until the test says so. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
