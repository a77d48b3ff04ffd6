import type { Action, SnapshotElement } from '@tandem/shared';
import {
  isButtonLike,
  isCheckable,
  isDateField,
  isDropdownToggle,
  isNativeSelect,
  isPassword,
  isSearchField,
  isSlider,
  isSubmit,
  isTypeable,
} from './elements';
import { defaultField, fieldsNamed, findField, isFillable, splitFieldValue } from './fields';
import { findElement } from './match';
import { act, describeElement, quote, type Resolution, type ResolveContext } from './resolution';
import { formSearch } from './search-form';
import type { FieldEntry, SubStep, ValueShape } from './substeps';
import { textScore } from './text';

const FALSE_WORDS = /^(?:|no|off|false|unchecked|unticked|none)$/i;

/** Fields typed into at once when the value goes into "both" or "all" of them. */
const MAX_FIELDS_AT_ONCE = 5;

/** One value into one field: typed, chosen, ticked, or (custom dropdown) turned into a select sub-step. */
export function resolveFill(entry: FieldEntry, ctx: ResolveContext): Resolution {
  if (entry.vague) return { type: 'ask', question: vagueQuestion(entry) };
  if (entry.shape && ctx.phase > 0) return pickSuggestion(entry.shape, ctx);
  if (entry.all) return fillAll(entry, ctx);
  let element: SnapshotElement | undefined;
  let value = entry.value;
  if (entry.raw !== undefined) {
    const split = splitFieldValue(entry.raw, ctx);
    if (split) [element, value] = [split.match.element, split.value];
    else [element, value] = [defaultField(ctx, entry.raw), entry.raw];
  } else if (entry.field !== undefined) {
    element = findField(entry.field, ctx)?.element;
    if (!element) return { type: 'missing', what: `the field ${quote(entry.field)}`, waitText: entry.field };
  } else if (entry.generic) {
    const fields = ctx.snapshot.elements.filter((e) => isTypeable(e) && e.in_viewport && !ctx.used.has(e.index));
    element = fields.length === 1 ? fields[0] : (fields.find((e) => e.states.focused) ?? besideNextButton(fields, ctx));
    if (!element && fields.length > 1) {
      const names = fields.slice(0, 6).map(describeElement).join(', ');
      return {
        type: 'missing',
        what: `which text field you mean: the page has ${fields.length} (${names})`,
        strict: true,
      };
    }
  } else {
    element = (entry.hint !== undefined ? findField(entry.hint, ctx)?.element : undefined) ?? defaultField(ctx, value);
  }
  if (!element) return { type: 'missing', what: 'a text field to type into' };
  const filled = fillElement(element, value, ctx);
  // A described value: type its start, then (next round) pick the suggestion that fits.
  if (entry.shape && filled.type === 'act') filled.complete = false;
  return filled;
}

/** Fields further than this from the button the instruction presses next do not belong with it. */
const BESIDE_PX = 150;

/**
 * "Enter X in the textbox and press Search" on a page with several boxes: the one that goes with the
 * button pressed next, the nearest box before it (on its row, or just above it).
 */
function besideNextButton(fields: SnapshotElement[], ctx: ResolveContext): SnapshotElement | undefined {
  const next = ctx.following;
  if (next?.kind !== 'click' || next.target.text === '') return undefined;
  const button = findElement(ctx.snapshot, next.target, { threshold: 0.75 })?.element;
  if (!button) return undefined;
  const distance = (e: SnapshotElement) =>
    Math.hypot(
      Math.max(0, button.box.x - (e.box.x + e.box.width)),
      Math.max(0, button.box.y - (e.box.y + e.box.height)),
    );
  const order = ctx.snapshot.elements;
  const at = order.indexOf(button);
  const before = fields.filter((e) => order.indexOf(e) < at && e.box.y <= button.box.y + button.box.height);
  const nearest = before.sort((a, b) => distance(a) - distance(b))[0];
  return nearest && distance(nearest) <= BESIDE_PX ? nearest : undefined;
}

/** "type X into both text fields": every field the words name, else every visible text field. */
function fillAll(entry: FieldEntry, ctx: ResolveContext): Resolution {
  const named = entry.field !== undefined ? fieldsNamed(entry.field, ctx) : [];
  const fields = (named.length > 0 ? named : ctx.snapshot.elements.filter((e) => isTypeable(e) && e.in_viewport))
    .filter((e) => !ctx.used.has(e.index))
    .slice(0, MAX_FIELDS_AT_ONCE);
  if (fields.length === 0)
    return { type: 'missing', what: entry.field ? `the fields ${quote(entry.field)}` : 'a text field' };
  const results = fields.map((e) => fillElement(e, entry.value, ctx));
  const acts = results.filter((r): r is Extract<Resolution, { type: 'act' }> => r.type === 'act');
  if (acts.length === 0) return results[0]!;
  const merged = act(
    acts.flatMap((r) => r.actions),
    acts.flatMap((r) => r.elements),
    acts.map((r) => r.note).join(', '),
    { endsBatch: false },
  );
  merged.expects = acts.flatMap((r) => r.expects ?? []);
  return merged;
}

/** The value was only described ("something sensible"): ask for it rather than type the words. */
function vagueQuestion(entry: FieldEntry): string {
  const where = entry.field ? ` into ${quote(entry.field)}` : '';
  return `Which text should I type${where}? "${entry.value}" does not say exactly, and I would rather not guess. Answer with the text itself, for example: type "…"${where}.`;
}

/** Picks, among the suggestions that appeared, the one that fits the described value. */
function pickSuggestion(shape: ValueShape, ctx: ResolveContext): Resolution {
  const fitsShape = (text: string) => {
    const t = text.trim().toLowerCase();
    return (
      t !== '' &&
      (!shape.startsWith || t.startsWith(shape.startsWith.toLowerCase())) &&
      (!shape.endsWith || t.endsWith(shape.endsWith.toLowerCase())) &&
      (!shape.contains || t.includes(shape.contains.toLowerCase()))
    );
  };
  const suggestion = ctx.snapshot.elements.find(
    (e) =>
      !isTypeable(e) &&
      !isButtonLike(e) &&
      e.text.length < 100 &&
      fitsShape(e.text) &&
      (e.is_new || e.role === 'option'),
  );
  const described = describeShape(shape);
  if (suggestion) return act([click(suggestion)], [suggestion], `chose ${describeElement(suggestion)} (${described})`);
  // Suggestion lists often open after a short delay: look once more before settling for what was typed.
  if (ctx.phase === 1)
    return act([{ action: 'wait', ms: 1_000 }], [undefined], 'waited for suggestions', { complete: false });
  const field = ctx.snapshot.elements.find((e) => e.states.focused && isTypeable(e));
  if (field && fitsShape(field.attributes.value ?? ''))
    return { type: 'skip', note: `typed ${quote(field.attributes.value!)} (${described})` };
  return { type: 'missing', what: `a suggestion ${described}`, strict: true };
}

function describeShape(shape: ValueShape): string {
  const parts = [
    shape.startsWith !== undefined ? `starts with ${quote(shape.startsWith)}` : '',
    shape.endsWith !== undefined ? `ends with ${quote(shape.endsWith)}` : '',
    shape.contains !== undefined ? `contains ${quote(shape.contains)}` : '',
  ].filter(Boolean);
  return `it ${parts.join(' and ')}`;
}

function fillElement(e: SnapshotElement, value: string, ctx: ResolveContext): Resolution {
  ctx.used.add(e.index);
  if (isNativeSelect(e)) return selectNative(e, value);
  if (isSlider(e) && !isTypeable(e) && Number.isFinite(Number(value))) {
    return {
      type: 'splice',
      steps: [{ kind: 'slide', target: { text: e.name, kind: 'slider' }, value: Number(value) }],
    };
  }
  if (isCheckable(e)) {
    const checked = !FALSE_WORDS.test(value.trim());
    if (e.states.checked === checked) return { type: 'skip', note: `${describeElement(e)} was already set` };
    return act(
      [{ action: 'check', index: e.index, checked }],
      [e],
      `${checked ? 'ticked' : 'unticked'} ${describeElement(e)}`,
      { endsBatch: false, expect: { index: e.index, checked } },
    );
  }
  if (isDropdownToggle(e) && !isTypeable(e))
    return { type: 'splice', steps: [{ kind: 'select', option: value, field: e.name }] };
  const action: Action = { action: 'type', index: e.index, text: value, clear: true, submit: false };
  const shown = isPassword(e) ? '••••' : value;
  const note = value ? `typed ${quote(shown)} into ${describeElement(e)}` : `cleared ${describeElement(e)}`;
  // A date field converts what it is given; the rest are checked afterwards against what was typed.
  const expect = isPassword(e) || isDateField(e) ? undefined : { index: e.index, value };
  return act([action], [e], note, { endsBatch: false, expect });
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
  const every = (step.target.all && step.target.text === '') || /^everything$/i.test(step.target.text);
  if (every) {
    // "all the boxes", "select nothing": every box that is not already so, at most 5 at a time.
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
  if (!match) {
    if (step.target.text === '') {
      const names = boxes.slice(0, 6).map(describeElement).join(', ');
      return boxes.length === 0
        ? { type: 'missing', what: 'a checkbox' }
        : { type: 'missing', what: `which checkbox you mean: the page has ${boxes.length} (${names})`, strict: true };
    }
    return { type: 'missing', what: `a checkbox ${quote(step.target.text)}`, waitText: step.target.text };
  }
  return fillElement(match.element, step.checked ? 'yes' : 'no', ctx);
}

/** Qualifiers that must find their field by name before a structured form wins over a search box. */
const STRUCTURED_MIN_NAMED = 2;

/** Finds the search box, types the query and presses Enter. */
export function resolveSearch(query: string, ctx: ResolveContext): Resolution {
  const fields = ctx.snapshot.elements.filter(isSearchField);
  const field = fields.find((e) => e.in_viewport) ?? fields[0];
  // A form whose fields name the query's qualifiers ("by Christie" → Author, "from 1934" → Published)
  // says more than a plain search box beside it.
  const structured = field && formSearch(query, ctx, { minNamed: STRUCTURED_MIN_NAMED, besides: field });
  if (structured) return structured;
  if (!field) {
    // "search for drama movies directed by Ada from 2011" on a form with Genre, Director and Year fields.
    const form = formSearch(query, ctx);
    if (form) return form;
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

/** Words on a button that sends a form. */
const SUBMIT_WORDS =
  /^(?:submit|search|go|go!|find|send|ok|okay|done|apply|save|continue|next|enter|confirm|log ?in|login|sign ?in)$/i;

/**
 * The button that sends a form: type=submit, or a button (or any clickable) that says so. With `after`
 * (the form's last field) the first such control after it wins, as a person reads a form; otherwise the
 * one nearest to where the last action happened.
 */
export function submitButton(ctx: ResolveContext, after?: SnapshotElement): SnapshotElement | undefined {
  const usable = ctx.snapshot.elements.filter((e) => !e.states.disabled && !isTypeable(e) && !isFillable(e));
  const candidates = usable.filter((e) => isSubmit(e) || SUBMIT_WORDS.test((e.name || e.text).trim()));
  if (after) {
    const following = candidates.filter((e) => e.index > after.index || e.box.y > after.box.y);
    const first = following.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)[0];
    if (first) return first;
  }
  const byDistance = (e: SnapshotElement) =>
    ctx.anchor ? Math.hypot(e.box.x - ctx.anchor.x, e.box.y - ctx.anchor.y) : e.in_viewport ? 0 : 1;
  const typed = candidates.filter(isSubmit);
  const buttons = candidates.filter(isButtonLike);
  const pool = typed.length > 0 ? typed : buttons.length > 0 ? buttons : candidates;
  return pool.sort((a, b) => byDistance(a) - byDistance(b))[0];
}

/** Submits the form: its submit button, else Enter in the field typed last. */
export function resolveSubmit(ctx: ResolveContext): Resolution {
  const button = submitButton(ctx);
  if (button) return act([click(button)], [button], `submitted with ${describeElement(button)}`);
  return act([{ action: 'press_key', key: 'Enter', modifiers: [] }], [undefined], 'pressed Enter to submit');
}

export const click = (e: SnapshotElement): Action => ({ action: 'click', index: e.index, double: false });
