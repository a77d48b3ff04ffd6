/** Every fixture task goes through the HTTP API: browse with the built-in planner, then the page is inspected. */
import { type FixtureSite, startFixtureSite } from '@tandem/e2e/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TASKS, type BuiltinTask, type FinalState, finalState, TASK_MAX_STEPS } from './builtin-tasks';
import { startTestRelay, type TestRelay } from './support';

let relay: TestRelay;
let site: FixtureSite;
let accountId: string;
const stepTimes: number[] = [];
const outcomes: boolean[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  relay = await startTestRelay({ TANDEM_PLANNER: 'builtin' });
  accountId = (await relay.services.store.apiKeys.resolve(relay.key))!.accountId;
});
afterAll(async () => {
  await relay?.close();
  await site?.close();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const passed = outcomes.filter(Boolean).length;
  process.stdout.write(
    `\nbuilt-in planner: ${passed}/${outcomes.length} tasks passed (${((100 * passed) / Math.max(1, outcomes.length)).toFixed(1)}%), ` +
      `median step ${median(stepTimes).toFixed(0)} ms through the HTTP API\n`,
  );
});

interface Browse {
  status: 'DONE' | 'ASK_USER' | 'CONTINUE';
  message: string;
  session_id: string;
  url: string;
  metadata: { step_count: number };
}

async function browse(body: Record<string, unknown>): Promise<Browse> {
  const started = performance.now();
  const res = await relay.api<Browse>('POST', '/v1/web/browse', { body: { max_steps: TASK_MAX_STEPS, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const steps = Math.max(1, res.body.metadata.step_count);
  for (let i = 0; i < steps; i++) stepTimes.push((performance.now() - started) / steps);
  return res.body;
}

/** The session's page after the task, as the task checks expect it. */
function sessionState(sessionId: string, message: string): Promise<FinalState> {
  return finalState(relay.services.sessions.get(accountId, sessionId), message);
}

describe('built-in planner fixture tasks (through POST /v1/web/browse)', () => {
  it.each(BUILTIN_TASKS.map((task) => [task.name, task] as [string, BuiltinTask]))('%s', async (_, task) => {
    const run = await browse({
      cmd: task.instruction.replaceAll('{{ORIGIN}}', site.url),
      url: `${site.url}${task.page}`,
    });
    try {
      const state = await sessionState(run.session_id, run.message);
      const ok = run.status === task.expect && task.check(state);
      outcomes.push(ok);
      const context = `${task.instruction}\n${run.status}: ${run.message}\nurl: ${state.url}\n${state.text.slice(0, 1500)}`;
      expect(run.status, context).toBe(task.expect);
      expect(task.check(state), context).toBe(true);
      // The user reads elements by their names, never by the snapshot's indices, and no Markdown marks.
      expect(run.message, context).not.toMatch(/\[\d+\]|<\/?\w+[ >]|^#|\*\*/);
    } finally {
      await relay.api('DELETE', `/v1/web/session/${run.session_id}`);
    }
  });
});

describe('built-in planner conversations (ASK_USER, then the answer as the next cmd)', () => {
  async function converse(page: string, task: string, answer: string) {
    const asked = await browse({ cmd: task, url: `${site.url}${page}` });
    expect(asked.status).toBe('ASK_USER');
    const answered = await browse({ cmd: answer, session_id: asked.session_id });
    return { asked, answered, state: await sessionState(answered.session_id, answered.message) };
  }

  it('continues with a new target after asking which element was meant', async () => {
    const { answered, state } = await converse(
      '/cards.html',
      'click the Purple Unicorn button',
      'Add Calm Lamp to cart',
    );
    expect(answered.status, answered.message).toBe('DONE');
    expect(state.text).toContain('Cart: 1 items');
  });

  it('re-targets the step when the answer is just a name', async () => {
    const { answered, state } = await converse('/cards.html', 'open the Purple Unicorn', 'Calm Lamp');
    expect(answered.status, answered.message).toBe('DONE');
    expect(state.url).toMatch(/item=calm-lamp$/);
  });

  it('after a task is done, an empty cmd is refused instead of bringing back an old question', async () => {
    const { answered } = await converse(
      '/index.html',
      'open the Form page, then dance a little jig',
      'type Ada into Name',
    );
    expect(answered.status, answered.message).toBe('DONE');
    const again = await relay.api<{ message: string }>('POST', '/v1/web/browse', {
      body: { cmd: '', session_id: answered.session_id },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toContain('is done');
    expect(again.body.message).not.toContain('dance');
    const step = await relay.api<{ message: string }>('POST', `/v1/web/session/${answered.session_id}`, {
      body: { cmd: '', stream: false },
    });
    expect(step.status).toBe(400);
  });

  it('quotes only a short excerpt of a long command it cannot follow, and answers at once', async () => {
    const words = 'dance a little jig around the garden while humming '.repeat(350);
    const asked = await browse({ cmd: words, url: `${site.url}/form.html` });
    expect(asked.status).toBe('ASK_USER');
    expect(asked.message.length).toBeLessThan(1_000);
  });

  it('replaces the part it did not understand with the answer and does the rest', async () => {
    const { answered, state } = await converse(
      '/index.html',
      'open the Form page, then dance a little jig',
      'type Ada into Name and click Send',
    );
    expect(answered.status, answered.message).toBe('DONE');
    expect(state.url).toContain('/echo?name=Ada');
  });
});
