import type { Action, SnapshotElement } from '@tandem/shared';
import {
  isCheckable,
  isDropdownToggle,
  isNativeSelect,
  isPassword,
  isSearchField,
  isSubmit,
  isTypeable,
} from './elements';
import { defaultField, findField, splitFieldValue } from './fields';
import { findElement } from './match';
import { act, describeElement, quote, type Resolution, type ResolveContext } from './resolution';
import type { FieldEntry, SubStep } from './substeps';
import { textScore } from './text';

const FALSE_WORDS = /^(?:|no|off|false|unchecked|unticked|none)$/i;

/** One value into one field: typed, chosen, ticked, or (custom dropdown) turned into a select sub-step. */
export function resolveFill(entry: FieldEntry, ctx: ResolveContext): Resolution {
  let element: SnapshotElement | undefined;
  let value = entry.value;
  if (entry.raw !== undefined) {
    const split = splitFieldValue(entry.raw, ctx);
    if (split) [element, value] = [split.match.element, split.value];
    else [element, value] = [defaultField(ctx), entry.raw];
  } else if (entry.field !== undefined) {
    element = findField(entry.field, ctx)?.element;
    if (!element) return { type: 'missing', what: `the field ${quote(entry.field)}`, waitText: entry.field };
  } else {
    element = defaultField(ctx);
  }
  if (!element) return { type: 'missing', what: 'a text field to type into' };
  return fillElement(element, value, ctx);
}

function fillElement(e: SnapshotElement, value: string, ctx: ResolveContext): Resolution {
  ctx.used.add(e.index);
  if (isNativeSelect(e)) return selectNative(e, value);
  if (isCheckable(e)) {
    const checked = !FALSE_WORDS.test(value.trim());
    if (e.states.checked === checked) return { type: 'skip', note: `${describeElement(e)} was already set` };
    return act(
      [{ action: 'check', index: e.index, checked }],
      [e],
      `${checked ? 'ticked' : 'unticked'} ${describeElement(e)}`,
      {
        endsBatch: false,
      },
    );
  }
  if (isDropdownToggle(e) && !isTypeable(e))
    return { type: 'splice', steps: [{ kind: 'select', option: value, field: e.name }] };
  const action: Action = { action: 'type', index: e.index, text: value, clear: true, submit: false };
  const shown = isPassword(e) ? '••••' : value;
  const note = value ? `typed ${quote(shown)} into ${describeElement(e)}` : `cleared ${describeElement(e)}`;
  return act([action], [e], note, { endsBatch: false });
}

function selectNative(e: SnapshotElement, option: string): Resolution {
  const options = e.options ?? [];
  const best = options
    .map((o) => ({ o, score: Math.max(textScore(option, o.text), textScore(option, o.value) * 0.9) }))
    .sort((a, b) => b.score - a.score)[0];
  if (!best || best.score < 0.5) {
    const list = options.map((o) => o.text).join(', ');
    return {
      type: 'ask',
      question: `${describeElement(e)} has no option like ${quote(option)}. Its options are: ${list}. Which one?`,
    };
  }
  return act(
    [{ action: 'select_option', index: e.index, option: best.o.text }],
    [e],
    `chose ${quote(best.o.text)} in ${describeElement(e)}`,
    {
      endsBatch: false,
    },
  );
}

/** A choice from a list: a native select in one action; a custom dropdown by opening it, then clicking the option. */
export function resolveSelect(step: Extract<SubStep, { kind: 'select' }>, ctx: ResolveContext): Resolution {
  const { snapshot } = ctx;
  if (ctx.phase > 0) {
    const toggle = (e: SnapshotElement) => !isDropdownToggle(e) && textScore(step.field ?? '', e.name) < 0.99;
    const option = findElement(
      snapshot,
      { text: step.option, kind: 'option' },
      { preferNew: true, accept: toggle, avoid: ctx.avoid },
    );
    if (!option) return { type: 'missing', what: `the option ${quote(step.option)}`, waitText: step.option };
    return act(
      [click(option.element)],
      [option.element],
      `chose ${quote(step.option)}${step.field ? ` in ${quote(step.field)}` : ''}`,
    );
  }
  if (step.field !== undefined) {
    const field = findElement(
      snapshot,
      { text: step.field, kind: 'dropdown' },
      { avoid: ctx.avoid, anchor: ctx.anchor },
    );
    if (!field) return { type: 'missing', what: `the list ${quote(step.field)}`, waitText: step.field };
    const e = field.element;
    if (isNativeSelect(e)) return selectNative(e, step.option);
    if (isTypeable(e)) return fillElement(e, step.option, ctx);
    return act([click(e)], [e], `opened ${describeElement(e)}`, { complete: false });
  }
  const selects = snapshot.elements.filter(
    (e) => isNativeSelect(e) && (e.options ?? []).some((o) => textScore(step.option, o.text) >= 0.7),
  );
  if (selects[0]) return selectNative(selects[0], step.option);
  const target = findElement(snapshot, { text: step.option, kind: 'option' }, { avoid: ctx.avoid, anchor: ctx.anchor });
  if (!target) return { type: 'missing', what: `an option ${quote(step.option)}`, waitText: step.option };
  if (isCheckable(target.element)) return fillElement(target.element, 'yes', ctx);
  return act([click(target.element)], [target.element], `chose ${describeElement(target.element)}`);
}

/** Ticks or unticks one box; nothing when it already is. */
export function resolveCheck(step: Extract<SubStep, { kind: 'check' }>, ctx: ResolveContext): Resolution {
  const boxes = ctx.snapshot.elements.filter(
    (e) => isCheckable(e) && e.attributes.type !== 'radio' && !e.states.disabled,
  );
  if (/^(?:check ?)?box(?:es)?$|^everything$/i.test(step.target.text) && boxes.length > 0) {
    // "all the boxes" (or "the box" when there is only one): every box that is not already so, at most 5 at a time.
    if (/box$/i.test(step.target.text) && boxes.length > 1)
      return { type: 'missing', what: 'which box to tick', strict: true };
    const todo = boxes.filter((e) => e.states.checked !== step.checked).slice(0, 5);
    if (todo.length === 0)
      return { type: 'skip', note: `every box was already ${step.checked ? 'ticked' : 'unticked'}` };
    const actions: Action[] = todo.map((e) => ({ action: 'check', index: e.index, checked: step.checked }));
    const verb = step.checked ? 'ticked' : 'unticked';
    return act(actions, todo, `${verb} ${todo.map(describeElement).join(', ')}`, {
      endsBatch: false,
      complete: todo.length < 5,
    });
  }
  const match = findElement(ctx.snapshot, step.target, { accept: isCheckable, avoid: ctx.avoid, anchor: ctx.anchor });
  if (!match) return { type: 'missing', what: `a checkbox ${quote(step.target.text)}`, waitText: step.target.text };
  return fillElement(match.element, step.checked ? 'yes' : 'no', ctx);
}

/** Finds the search box, types the query and presses Enter. */
export function resolveSearch(query: string, ctx: ResolveContext): Resolution {
  const fields = ctx.snapshot.elements.filter(isSearchField);
  const field = fields.find((e) => e.in_viewport) ?? fields[0];
  if (!field) {
    const opener = ctx.phase === 0 && findElement(ctx.snapshot, { text: 'search', kind: 'button' }, { threshold: 0.7 });
    if (opener) return act([click(opener.element)], [opener.element], 'opened the search', { complete: false });
    return { type: 'missing', what: 'a search box' };
  }
  const action: Action = { action: 'type', index: field.index, text: query, clear: true, submit: true };
  return act([action], [field], `searched for ${quote(query)}`);
}

const LOGIN_WORDS = /\b(?:log ?in|login|sign ?in|signin|log on|continue|submit|next)\b/i;

/** Fills the user and password fields and submits; opens a "Sign in" link first when the page has no form. */
export function resolveLogin(step: Extract<SubStep, { kind: 'login' }>, ctx: ResolveContext): Resolution {
  const { elements } = ctx.snapshot;
  const password = elements.find((e) => isPassword(e) && isTypeable(e));
  if (!password) {
    const link = ctx.phase === 0 && findElement(ctx.snapshot, { text: 'log in' }, { threshold: 0.7 });
    if (link)
      return act([click(link.element)], [link.element], `opened ${describeElement(link.element)}`, { complete: false });
    return { type: 'missing', what: 'a login form with a password field', waitText: 'password' };
  }
  const user =
    findField('username', { ...ctx, used: new Set([password.index]) })?.element ??
    elements.filter((e) => isTypeable(e) && !isPassword(e) && e.index < password.index).at(-1);
  if (!user) return { type: 'missing', what: 'a user name or e-mail field' };
  const submit =
    elements.find((e) => isSubmit(e) && !e.states.disabled && e.index > password.index) ??
    elements.find(
      (e) => (e.tag === 'button' || e.role === 'button') && LOGIN_WORDS.test(e.name) && e.index > password.index,
    );
  const actions: Action[] = [
    { action: 'type', index: user.index, text: step.user, clear: true, submit: false },
    { action: 'type', index: password.index, text: step.password, clear: true, submit: submit === undefined },
  ];
  if (submit) actions.push(click(submit));
  return act(actions, [user, password, submit], `logged in as ${quote(step.user)}`);
}

/** Submits the form: its submit button, else Enter in the field typed last. */
export function resolveSubmit(ctx: ResolveContext): Resolution {
  const buttons = ctx.snapshot.elements.filter((e) => isSubmit(e) && !e.states.disabled);
  const byDistance = (e: SnapshotElement) =>
    ctx.anchor ? Math.hypot(e.box.x - ctx.anchor.x, e.box.y - ctx.anchor.y) : e.in_viewport ? 0 : 1;
  const button = buttons.sort((a, b) => byDistance(a) - byDistance(b))[0];
  if (button) return act([click(button)], [button], `submitted with ${describeElement(button)}`);
  return act([{ action: 'press_key', key: 'Enter', modifiers: [] }], [undefined], 'pressed Enter to submit');
}

export const click = (e: SnapshotElement): Action => ({ action: 'click', index: e.index, double: false });
