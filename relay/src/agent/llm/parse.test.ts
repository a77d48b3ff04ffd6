import { describe, expect, it } from 'vitest';
import {
  applyStepRules,
  extractJson,
  type ParseResult,
  parseDecision,
  parseDecisionText,
  parseToolCalls,
} from './parse';

const decision = { memory: 'm', next_goal: 'g', actions: [{ action: 'click', index: 12 }] };

function ok(result: ParseResult) {
  if (!result.ok) throw new Error(`expected a valid decision, got: ${result.errors.join(' | ')}`);
  return result.decision;
}
function errors(result: ParseResult) {
  if (result.ok) throw new Error('expected errors, got a valid decision');
  return result.errors;
}

describe('tolerant parsing', () => {
  it('reads a plain decision and applies the action defaults', () => {
    expect(ok(parseDecisionText(JSON.stringify(decision)))).toEqual({
      memory: 'm',
      nextGoal: 'g',
      actions: [{ action: 'click', index: 12, double: false }],
    });
  });

  it('reads JSON inside a markdown fence with prose around it', () => {
    const text = `Sure! Here is my decision:\n\`\`\`json\n${JSON.stringify(decision, null, 2)}\n\`\`\`\nLet me know.`;
    expect(ok(parseDecisionText(text)).actions).toEqual([{ action: 'click', index: 12, double: false }]);
  });

  it('reads JSON with text before and after it, ignoring brackets in the prose', () => {
    const text = `I will click [12] now. ${JSON.stringify(decision)} That should open it.`;
    expect(ok(parseDecisionText(text)).nextGoal).toBe('g');
  });

  it('accepts a bare actions array and a single action object', () => {
    expect(ok(parseDecisionText('[{"action":"go_back"}]'))).toEqual({ actions: [{ action: 'go_back' }] });
    expect(ok(parseDecisionText('{"action":"done","message":"Price is 5 EUR"}')).actions).toEqual([
      { action: 'done', message: 'Price is 5 EUR' },
    ]);
  });

  it('repairs trailing commas but not commas inside strings', () => {
    const text = '{"memory":"a, ]","next_goal":"g","actions":[{"action":"type","index":3,"text":"x,}",},],}';
    expect(ok(parseDecisionText(text))).toMatchObject({
      memory: 'a, ]',
      actions: [{ action: 'type', index: 3, text: 'x,}' }],
    });
  });

  it('coerces numbers and booleans written as strings', () => {
    const value = {
      actions: [
        { action: 'click', index: '12' },
        { action: 'type', index: '[3]', text: '42', submit: 'true' },
        { action: 'scroll', direction: 'down', amount: '0.5' },
      ],
    };
    expect(ok(parseDecision(value)).actions).toEqual([
      { action: 'click', index: 12, double: false },
      { action: 'type', index: 3, text: '42', clear: true, submit: true },
      { action: 'scroll', direction: 'down', amount: 0.5 },
    ]);
  });

  it('ignores unknown fields and drops nulls so defaults apply (strict mode writes null for "not given")', () => {
    const value = {
      memory: 'm',
      next_goal: 'g',
      thoughts: 'extra',
      actions: [{ action: 'type', index: 3, text: 'hi', clear: null, submit: null, reason: 'why not' }],
    };
    expect(ok(parseDecision(value)).actions).toEqual([
      { action: 'type', index: 3, text: 'hi', clear: true, submit: false },
    ]);
  });

  it('accepts the shapes models drift into: {click: {...}}, nested params, odd casing, camelCase goal', () => {
    const value = {
      nextGoal: 'open it',
      actions: [
        { click: { index: 4 } },
        { action: 'select_option', params: { index: 5, option: 'Blue' } },
        { action: 'Go-Back' },
        { name: 'press_key', key: 'Enter' },
      ],
    };
    expect(ok(parseDecision(value))).toEqual({
      nextGoal: 'open it',
      actions: [
        { action: 'click', index: 4, double: false },
        { action: 'select_option', index: 5, option: 'Blue' },
        { action: 'go_back' },
        { action: 'press_key', key: 'Enter', modifiers: [] },
      ],
    });
  });

  it('unwraps a decision written as a function call', () => {
    const text = JSON.stringify({ name: 'decide', arguments: JSON.stringify(decision) });
    expect(ok(parseDecisionText(text)).nextGoal).toBe('g');
  });

  it('wraps a single actions object into a list', () => {
    expect(ok(parseDecision({ memory: '', next_goal: 'g', actions: { action: 'go_forward' } })).actions).toEqual([
      { action: 'go_forward' },
    ]);
  });

  it('reports each invalid action with its position and field', () => {
    const errs = errors(
      parseDecision({
        actions: [
          { action: 'click', index: 'twelve' },
          { action: 'clik', index: 3 },
          { action: 'type', index: 2 },
        ],
      }),
    );
    expect(errs).toHaveLength(3);
    expect(errs[0]).toMatch(/^actions\[0\] \(click\)\.index: /);
    expect(errs[1]).toMatch(/^actions\[1\]: unknown action "clik"; use one of navigate, go_back/);
    expect(errs[2]).toMatch(/^actions\[2\] \(type\)\.text: /);
  });

  it('rejects an empty action list, non-JSON and JSON that is no decision', () => {
    expect(errors(parseDecision({ memory: 'm', next_goal: 'g', actions: [] }))[0]).toMatch(/actions is empty/);
    expect(errors(parseDecisionText('I think I should click the button.'))[0]).toMatch(/not valid JSON/);
    expect(errors(parseDecisionText('   '))[0]).toMatch(/empty/);
    expect(errors(parseDecisionText('{"answer": 42}'))[0]).toMatch(/got keys "answer"/);
    expect(errors(parseDecisionText('"just a string"'))[0]).toMatch(/got the string/);
  });

  it('does not salvage actions from a truncated reply', () => {
    expect(extractJson('{"memory":"m","actions":[{"action":"click"')).toHaveProperty('error');
    expect(extractJson('{"actions":[{"action":"click","index":1}],"memory":"cut of')).toHaveProperty('error');
  });
});

describe('tool calls', () => {
  it('reads the decision tool arguments', () => {
    expect(ok(parseToolCalls([{ name: 'decide', arguments: JSON.stringify(decision) }])).nextGoal).toBe('g');
  });

  it('reads actions called as tools of their own', () => {
    const calls = [
      { name: 'type', arguments: '{"index": 2, "text": "ada"}' },
      { name: 'click', arguments: '{"index": "3"}' },
    ];
    expect(ok(parseToolCalls(calls)).actions).toEqual([
      { action: 'type', index: 2, text: 'ada', clear: true, submit: false },
      { action: 'click', index: 3, double: false },
    ]);
  });
});

describe('step rules', () => {
  const click = { action: 'click', index: 1, double: false } as const;
  const done = { action: 'done', message: 'finished' } as const;
  const ask = { action: 'ask_user', question: 'which?' } as const;

  it('keeps the page actions and drops done or ask_user mixed with them', () => {
    expect(applyStepRules([click, done])).toEqual({
      kept: [click],
      notes: ['dropped done mixed with page actions'],
    });
    expect(applyStepRules([ask, click]).kept).toEqual([click]);
  });

  it('keeps the first of several terminal actions', () => {
    expect(applyStepRules([ask, done]).kept).toEqual([ask]);
    expect(applyStepRules([done]).kept).toEqual([done]);
  });

  it('keeps at most five actions and does not cut after page-changing ones (the step loop does)', () => {
    const navigate = { action: 'navigate', url: 'https://example.com' } as const;
    const actions = [navigate, click, click, click, click, click, click];
    const { kept, notes } = applyStepRules(actions);
    expect(kept).toEqual(actions.slice(0, 5));
    expect(notes).toEqual(['kept the first 5 of 7 actions']);
  });
});

describe('hostile replies', () => {
  const MB = 1_000_000;

  it('reads a megabyte of adversarial text in one pass (a quadratic reader would take minutes)', () => {
    const replies = [
      `\`\`\`${' '.repeat(MB)}`, // an unclosed fence, then whitespace: the old fence pattern backtracked here
      `\`\`\`${'a'.repeat(MB)}`,
      `\`\`\`json\n${'{'.repeat(MB)}`,
      '{'.repeat(MB),
      `[${'{"action": "scroll"},'.repeat(MB / 20)}`,
      `{"actions": [${' ,'.repeat(MB / 2)}]}`,
      '```\n{}\n```'.repeat(MB / 10),
    ];
    for (const reply of replies) {
      const result = parseDecisionText(reply);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.join(' ').length).toBeLessThan(1_000);
    }
  });

  it("quotes only the start of a model's long names and keys in its errors", () => {
    const name = 'x'.repeat(5_000);
    const result = parseDecision({
      actions: [{ action: name }, Object.fromEntries([[name, 1], ...'abcdefghij'.split('').map((k) => [k, 1])])],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.errors.join(' ');
    expect(text.length).toBeLessThan(1_500);
    expect(text).toContain('and 3 more');
  });
});
