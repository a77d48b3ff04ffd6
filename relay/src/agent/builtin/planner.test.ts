import type { Action, Snapshot } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import type { PlanDecision, PlanInput, StepRecord } from '../planner';
import { applied, el, page } from './fake-page';
import { BuiltinPlanner } from './planner';

const planner = new BuiltinPlanner();

function input(task: string, snapshot: Snapshot, extra: Partial<PlanInput> = {}): PlanInput {
  return {
    task,
    step: 1,
    maxSteps: 20,
    snapshot,
    url: snapshot.url,
    tabs: [],
    history: [],
    skills: [],
    mode: 'fast',
    nudges: [],
    ...extra,
  };
}

/** The record the step loop would write after running `decision` with these result codes. */
function ran(decision: PlanDecision, codes: string[], step = 1): StepRecord {
  return {
    step,
    task: '',
    actions: decision.actions
      .slice(0, codes.length)
      .map((action, i) => ({ action, code: codes[i]!, message: codes[i]! })),
    url: '',
    events: [],
  };
}

const form = page([
  el(1, 'input', 'Name', { attributes: { name: 'name', value: '' } }),
  el(2, 'input', 'Email', { attributes: { type: 'email', name: 'email', value: '' } }),
  el(3, 'input', 'Phone', { attributes: { type: 'tel', name: 'phone', value: '' } }),
  el(4, 'select', 'Country', {
    options: [
      { text: 'Canada', value: 'ca', selected: true },
      { text: 'Mexico', value: 'mx', selected: false },
    ],
  }),
  el(5, 'input', 'I accept the terms', { attributes: { type: 'checkbox' }, states: { checked: false } }),
  el(6, 'button', 'Send', { attributes: { type: 'submit' } }),
]);

const names = (actions: Action[]) => actions.map((a) => a.action);

describe('BuiltinPlanner', () => {
  it('fills several fields in one step and puts the page-changing click last', async () => {
    const decision = await planner.plan(
      input('type Ada into Name, enter ada@example.com in Email and click Send', form),
    );
    expect(decision.actions).toEqual([
      { action: 'type', index: 1, text: 'Ada', clear: true, submit: false },
      { action: 'type', index: 2, text: 'ada@example.com', clear: true, submit: false },
      { action: 'click', index: 6, double: false },
    ]);
  });

  it('never puts more than 5 actions in one decision', async () => {
    const task =
      'type a into Name, b into Email, 1 into Phone, select Mexico from Country, tick the terms and click Send';
    const first = await planner.plan(input(task, form));
    expect(names(first.actions)).toEqual(['type', 'type', 'type', 'select_option', 'check']);
    const second = await planner.plan(
      input(task, applied(form, first.actions), {
        memory: first.memory,
        history: [ran(first, ['ok', 'ok', 'ok', 'ok', 'ok'])],
      }),
    );
    expect(second.actions).toEqual([{ action: 'click', index: 6, double: false }]);
  });

  it('finishes with done and a summary once every part ran, from memory alone', async () => {
    const task = 'select Mexico from Country and check I accept the terms';
    const first = await planner.plan(input(task, form));
    const done = await new BuiltinPlanner().plan(
      input(task, applied(form, first.actions), { memory: first.memory, history: [ran(first, ['ok', 'ok'])] }),
    );
    expect(done.actions).toHaveLength(1);
    expect(done.actions[0]).toMatchObject({ action: 'done' });
    expect((done.actions[0] as { message: string }).message).toMatch(/chose "Mexico".*ticked "I accept the terms"/);
  });

  it('does nothing for a box that is already ticked', async () => {
    const ticked = page([
      el(1, 'input', 'Newsletter', { attributes: { type: 'checkbox' }, states: { checked: true } }),
    ]);
    const decision = await planner.plan(input('check the newsletter box', ticked));
    expect(decision.actions[0]).toMatchObject({ action: 'done' });
  });

  it('redoes actions that never ran because the page changed first', async () => {
    const task = 'type Ada into Name and type x into Email';
    const first = await planner.plan(input(task, form));
    const second = await planner.plan(
      input(task, form, { memory: first.memory, history: [ran(first, ['navigation'])] }),
    );
    expect(second.actions).toEqual([{ action: 'type', index: 2, text: 'x', clear: true, submit: false }]);
  });

  it('retries a failed action on another element, then asks after repeated failures', async () => {
    const twoButtons = page([el(1, 'button', 'Send'), el(2, 'button', 'Send now')]);
    const task = 'click Send';
    const first = await planner.plan(input(task, twoButtons));
    expect(first.actions).toEqual([{ action: 'click', index: 1, double: false }]);
    const second = await planner.plan(
      input(task, twoButtons, { memory: first.memory, history: [ran(first, ['not_interactable'])] }),
    );
    expect(second.actions).toEqual([{ action: 'click', index: 2, double: false }]);
    const third = await planner.plan(
      input(task, twoButtons, { memory: second.memory, history: [ran(second, ['not_interactable'])] }),
    );
    expect(third.actions[0]).toMatchObject({ action: 'ask_user' });
    expect((third.actions[0] as { question: string }).question).toContain('failed twice');
  });

  it('asks up front about a part it cannot understand, naming it and how to configure a model', async () => {
    const decision = await planner.plan(input('click Send then juggle three oranges', form));
    expect(decision.actions).toHaveLength(1);
    const question = (decision.actions[0] as { action: string; question: string }).question;
    expect(decision.actions[0]!.action).toBe('ask_user');
    expect(question).toContain('"juggle three oranges"');
    expect(question).toContain('OPENAI_API_KEY');
    expect(question).toContain('TANDEM_MODEL_FAST');
  });

  it('looks further down for a missing target, then waits, then asks', async () => {
    const long = page([el(1, 'a', 'Top')], 'Top', {
      scroll: { x: 0, y: 0, above_px: 0, below_px: 5000, above_pages: 0, below_pages: 6 },
    });
    let memory: string | undefined;
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const decision = await planner.plan(input('click Footer link', long, { memory }));
      memory = decision.memory;
      seen.push(decision.actions[0]!.action);
      if (decision.actions[0]!.action === 'ask_user') break;
    }
    expect(seen).toEqual(['scroll', 'scroll', 'scroll', 'wait', 'ask_user']);
  });

  it('answers a question about the page with done', async () => {
    const shop = page([], '## Bolt Drill\n$89.99 · rated 4.2 of 5');
    const decision = await planner.plan(input('what is the price of the Bolt Drill?', shop));
    expect(decision.actions).toEqual([{ action: 'done', message: 'The price of Bolt Drill is $89.99.' }]);
  });

  it('opens a custom dropdown, then clicks the option that appeared', async () => {
    const closed = page([el(1, 'div', 'Choose a speed')]);
    const task = 'choose Express from the speed dropdown';
    const first = await planner.plan(input(task, closed));
    expect(first.actions).toEqual([{ action: 'click', index: 1, double: false }]);
    const open = page([
      el(1, 'div', 'Choose a speed'),
      el(3, 'div', 'Standard', { is_new: true }),
      el(4, 'div', 'Express (2 days)', { is_new: true }),
    ]);
    const second = await planner.plan(input(task, open, { memory: first.memory, history: [ran(first, ['ok'])] }));
    expect(second.actions).toEqual([{ action: 'click', index: 4, double: false }]);
  });

  it('takes "retry" as an answer to try the same part again', async () => {
    const empty = page([el(1, 'a', 'Home')]);
    let memory: string | undefined;
    for (let i = 0; i < 3; i++) memory = (await planner.plan(input('click Send', empty, { memory }))).memory;
    const retried = await planner.plan(
      input('click Send', form, { memory, userAnswer: { question: 'I could not find "Send"', answer: 'retry' } }),
    );
    expect(retried.actions).toEqual([{ action: 'click', index: 6, double: false }]);
  });

  it('starts over when the task changes', async () => {
    const first = await planner.plan(input('click Send', form));
    const other = await planner.plan(
      input('type Bo into Name', form, { memory: first.memory, history: [ran(first, ['ok'])] }),
    );
    expect(other.actions).toEqual([{ action: 'type', index: 1, text: 'Bo', clear: true, submit: false }]);
  });

  it('logs in: user field, password field, then the submit button', async () => {
    const login = page([
      el(1, 'input', 'Email address', { attributes: { type: 'email', name: 'email' } }),
      el(2, 'input', 'Password', { attributes: { type: 'password', name: 'password' } }),
      el(3, 'button', 'Sign in', { attributes: { type: 'submit' } }),
    ]);
    const decision = await planner.plan(input('log in as ada@example.com with password secret', login));
    expect(decision.actions).toEqual([
      { action: 'type', index: 1, text: 'ada@example.com', clear: true, submit: false },
      { action: 'type', index: 2, text: 'secret', clear: true, submit: false },
      { action: 'click', index: 3, double: false },
    ]);
  });

  it('opens a relative path against the current page', async () => {
    const decision = await planner.plan(input('go to /login.html', form));
    expect(decision.actions).toEqual([{ action: 'navigate', url: 'http://site.test/login.html' }]);
  });
});
