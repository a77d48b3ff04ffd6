/**
 * The built-in planner over its fixture tasks, end to end through POST /v1/web/browse: success rate
 * (final status and page state as each task's check expects) and step time.
 */
import { startFixtureSite } from '@tandem/e2e/fixtures';
import { BUILTIN_TASKS, finalState, TASK_MAX_STEPS } from '../relay/test/builtin-tasks';
import { BENCH_KEY, startBenchRelay, timePlanner } from './relay';
import { percentile, printTable, round, saveResults } from './stats';

export async function benchPlanner(): Promise<void> {
  const site = await startFixtureSite();
  const relay = await startBenchRelay({ TANDEM_PLANNER: 'builtin' });
  const accountId = (await relay.services.store.apiKeys.resolve(BENCH_KEY))?.accountId;
  if (!accountId) throw new Error('the bench key did not resolve to an account');
  const planMs: number[] = [];
  timePlanner(relay, (ms) => planMs.push(ms));
  const perStep: number[] = [];
  const failed: string[] = [];
  try {
    for (const task of BUILTIN_TASKS) {
      // The session (browser context, first page load) is opened first, so step times are steps only.
      const opened = await relay.post('/v1/web/session', { url: `${site.url}${task.page}` });
      const t = performance.now();
      const run = (await relay.post('/v1/web/browse', {
        cmd: task.instruction.replaceAll('{{ORIGIN}}', site.url),
        session_id: opened.session_id,
        max_steps: TASK_MAX_STEPS,
      })) as { status: string; message: string; session_id: string; metadata: { step_count: number } };
      const wall = performance.now() - t;
      perStep.push(wall / Math.max(1, run.metadata.step_count));
      const state = await finalState(relay.services.sessions.get(accountId, run.session_id), run.message);
      const ok = run.status === task.expect && task.check(state);
      if (!ok) failed.push(task.name);
      await fetch(`${relay.url}/v1/web/session/${run.session_id}`, { method: 'DELETE', headers: relay.headers });
    }
  } finally {
    await relay.close();
    await site.close();
  }
  const passed = BUILTIN_TASKS.length - failed.length;
  const figures = {
    tasks: BUILTIN_TASKS.length,
    passed,
    successRate: passed / BUILTIN_TASKS.length,
    failed,
    stepMsP50: percentile(perStep, 50),
    planMsP50: percentile(planMs, 50),
  };
  printTable(`Built-in planner: ${BUILTIN_TASKS.length} fixture tasks through POST /v1/web/browse`, [
    { measure: 'tasks passed', value: `${passed}/${BUILTIN_TASKS.length} (${round(100 * figures.successRate)}%)` },
    { measure: 'step p50, ms (browse wall time / steps, session opened beforehand)', value: round(figures.stepMsP50) },
    { measure: 'plan() p50, ms', value: round(figures.planMsP50, 2) },
  ]);
  if (failed.length > 0) process.stdout.write(`failed: ${failed.join('; ')}\n`);
  saveResults('planner', figures);
}
