/**
 * Suite (c): the project's own fixture tasks (relay/test/builtin-tasks.ts) on the fixture site
 * (e2e/fixtures), browsed through the HTTP API. A task's check reads the page the session ended on,
 * so this suite needs the relay the harness starts itself.
 */
import type { FixtureSite } from '@tandem/e2e/fixtures';
import { type BuiltinTask, finalState, TASK_MAX_STEPS } from '../relay/test/builtin-tasks';
import type { RelayClient } from './relay';

export { BUILTIN_TASKS as FIXTURE_TASKS } from '../relay/test/builtin-tasks';

export interface FixtureResult {
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
