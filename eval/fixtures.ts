/**
 * Suite (c): the project's own fixture tasks on the fixture site (e2e/fixtures), through the HTTP
 * API: the built-in planner's browse tasks (relay/test/builtin-tasks.ts), whose checks read the page a
 * session ended on (so they need the relay the harness starts itself), and the retrieve cases
 * (relay/test/retrieve-cases.ts), right only when ludicrous mode returns exactly the expected data.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FixtureSite } from '@tandem/e2e/fixtures';
import { type BuiltinTask, finalState, TASK_MAX_STEPS } from '../relay/test/builtin-tasks';
import { caseRequest, type RetrieveCase } from '../relay/test/retrieve-cases';
import type { RelayClient } from './relay';

export { BUILTIN_TASKS as FIXTURE_TASKS } from '../relay/test/builtin-tasks';
export { RETRIEVE_CASES } from '../relay/test/retrieve-cases';

/** Retrieve cases are named "retrieve: <case>" in tables and --tasks. */
export const retrieveTaskName = (c: RetrieveCase) => `retrieve: ${c.name}`;

export interface FixtureResult {
  kind: 'browse' | 'retrieve';
  task: string;
  success: boolean;
  expected: string;
  status: string;
  message: string;
  steps: number;
  ms: number;
  error?: string;
}

export async function runFixtureTask(
  relay: RelayClient,
  site: FixtureSite,
  task: BuiltinTask,
  options: { mode?: string | undefined },
): Promise<FixtureResult> {
  const result: FixtureResult = {
    kind: 'browse',
    task: task.name,
    success: false,
    expected: task.expect,
    status: '',
    message: '',
    steps: 0,
    ms: 0,
  };
  const local = relay.local;
  if (!local) {
    result.error =
      'the fixture suite checks the page a session ends on, so it needs the relay the harness starts (leave out --relay)';
    return result;
  }
  let sessionId: string | undefined;
  try {
    const t = performance.now();
    const run = await relay.call<{
      status: string;
      message: string;
      session_id: string;
      metadata?: { step_count?: number };
    }>('POST', '/v1/web/browse', {
      cmd: task.instruction.replaceAll('{{ORIGIN}}', site.url),
      url: `${site.url}${task.page}`,
      max_steps: TASK_MAX_STEPS,
      ...(options.mode ? { mode: options.mode } : {}),
    });
    result.ms = performance.now() - t;
    sessionId = run.session_id;
    result.status = run.status;
    result.message = run.message;
    result.steps = run.metadata?.step_count ?? 0;
    const state = await finalState(local.relay.services.sessions.get(local.accountId, run.session_id), run.message);
    result.success = run.status === task.expect && task.check(state);
  } catch (error) {
    result.error = (error as Error).message;
  } finally {
    if (sessionId) await relay.call('DELETE', `/v1/web/session/${sessionId}`).catch(() => undefined);
  }
  return result;
}

export async function runRetrieveCase(relay: RelayClient, site: FixtureSite, c: RetrieveCase): Promise<FixtureResult> {
  const result: FixtureResult = {
    kind: 'retrieve',
    task: retrieveTaskName(c),
    success: false,
    expected: 'exact data',
    status: '',
    message: '',
    steps: 0,
    ms: 0,
  };
  let sessionId: string | undefined;
  try {
    const t = performance.now();
    const res = await relay.call<{ status: string; session_id: string; data: Record<string, unknown>[] }>(
      'POST',
      '/v1/web/retrieve',
      caseRequest(c, site.url),
    );
    result.ms = performance.now() - t;
    sessionId = res.session_id;
    result.status = res.status;
    const expected = c.expected(site.url);
    result.success = isDeepStrictEqual(res.data, expected);
    result.message = result.success ? `${res.data.length} items` : differs(res.data, expected);
  } catch (error) {
    result.error = (error as Error).message;
  } finally {
    if (sessionId) await relay.call('DELETE', `/v1/web/session/${sessionId}`).catch(() => undefined);
  }
  return result;
}

/** Where the data first departs from the expected items, in a line. */
function differs(got: Record<string, unknown>[], expected: Record<string, unknown>[]): string {
  const i = got.findIndex((item, n) => !isDeepStrictEqual(item, expected[n]));
  const count = `${got.length} of ${expected.length} items`;
  if (i < 0) return count;
  return `${count}; item ${i + 1} is ${JSON.stringify(got[i])}, expected ${JSON.stringify(expected[i] ?? null)}`;
}
