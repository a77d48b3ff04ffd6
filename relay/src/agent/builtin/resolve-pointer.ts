import type { Snapshot, SnapshotElement } from '@tandem/shared';
import { isCheckable, isDropdownToggle, isSlider } from './elements';
import { elementKey, elementsOfKind, findElement, isPager, resultLinks } from './match';
import {
  act,
  describeElement,
  describeTarget,
  kindName,
  quote,
  type Resolution,
  type ResolveContext,
} from './resolution';
import { click } from './resolve-forms';
import type { SubStep, Target } from './substeps';
import { containsWords, textScore } from './text';

/** The most rounds a "scroll to the bottom / to X" sub-step takes. */
const MAX_SCROLL_ROUNDS = 12;
/** Collapsed sections and tree items opened while looking for a target that is not shown. */
const MAX_EXPANSIONS = 8;
/** Result pages turned while looking for "the 9th result". */
const MAX_PAGES = 10;

export function resolveClick(step: Extract<SubStep, { kind: 'click' }>, ctx: ResolveContext): Resolution {
  const target = step.target;
  if (target.kind === 'result' && target.text === '') return resolveResult(step, ctx);
  const match = findElement(ctx.snapshot, target, {
    avoid: ctx.avoid,
    anchor: ctx.anchor,
    threshold: step.strict ? 0.75 : 0.5,
  });
  if (!match) {
    if (target.text === '' && target.kind) return ambiguous(ctx.snapshot, target);
    if (isCloseWord(target.text)) return resolveDismiss(ctx);
    return expandToFind(step, ctx) ?? missing(target, step.strict);
  }
  const e = match.element;
  if (step.ensureChecked && isCheckable(e)) {
    if (e.states.checked === true) return { type: 'skip', note: `${describeElement(e)} was already ticked` };
    return act([{ action: 'check', index: e.index, checked: true }], [e], `ticked ${describeElement(e)}`, {
      endsBatch: false,
    });
  }
  const verb = step.double ? 'double-clicked' : 'clicked';
  return act(
    [{ action: 'click', index: e.index, double: step.double === true }],
    [e],
    `${verb} ${describeTarget(e, target)}`,
  );
}

function missing(target: Target, strict?: boolean): Resolution {
  return { type: 'missing', what: quote(target.text), waitText: target.text, strict };
}

/**
 * A target named by its kind alone ("the button") when the page has none, or several: there is
 * nothing to wait for in the second case, so the user is asked which one, by name.
 */
function ambiguous(snapshot: Snapshot, target: Target): Resolution {
  const kind = target.kind!;
  const all = elementsOfKind(snapshot, kind);
  if (all.length === 0) return { type: 'missing', what: `a ${kindName(kind)}` };
  const names = all.slice(0, 6).map(describeElement).join(', ');
  const which =
    target.ordinal !== undefined
      ? `the ${target.ordinal < 0 ? 'last' : `${target.ordinal}.`} ${kindName(kind)}: the page has ${all.length} (${names})`
      : `which ${kindName(kind)} you mean: the page has ${all.length} (${names})`;
  return { type: 'missing', what: which, strict: true };
}

const CLOSE_WORDS = ['close', 'dismiss', 'no thanks', 'cancel', 'got it', 'ok'];
const isCloseWord = (text: string) => /^(?:x|×|✕|✖|close|close button|close icon|cross)$/i.test(text.trim());

/** Closes a dialog or banner with its close button (a word, a ×, an icon whose class says close); Escape when it has none. */
export function resolveDismiss(ctx: ResolveContext): Resolution {
  for (const text of CLOSE_WORDS) {
    const match = findElement(ctx.snapshot, { text, kind: 'button' }, { threshold: 0.75, avoid: ctx.avoid });
    if (match) return act([click(match.element)], [match.element], `closed it with ${describeElement(match.element)}`);
  }
  return act([{ action: 'press_key', key: 'Escape', modifiers: [] }], [undefined], 'pressed Escape to close it');
}

/**
 * The nth search result, across pages: when this page holds fewer results than asked for, the next
 * page is opened and the results seen so far are counted ("the 9th result" with 3 per page is the
 * 3rd on page 3).
 */
function resolveResult(step: Extract<SubStep, { kind: 'click' }>, ctx: ResolveContext): Resolution {
  const target = step.target;
  const results = resultLinks(ctx.snapshot);
  const ordinal = target.ordinal ?? 1;
  const offset = target.offset ?? 0;
  const want = ordinal < 0 ? results.length + ordinal + 1 : ordinal - offset;
  const picked = results[want - 1];
  if (picked && want >= 1) return act([click(picked)], [picked], `clicked ${describeElement(picked)}`);
  if (results.length === 0 || want < 1 || ctx.phase >= MAX_PAGES)
    return { type: 'missing', what: 'the search results' };
  const next = nextPageLink(ctx.snapshot, Math.floor(offset / results.length) + 2);
  if (!next) return { type: 'missing', what: `result ${ordinal}: this page has ${results.length} and no next page` };
  target.offset = offset + results.length;
  return act([click(next)], [next], `went to the next page of results`, { complete: false });
}

const NEXT = /^(?:next|next page|more|older|[>›»→]|>>)$/i;

function nextPageLink(snapshot: Snapshot, page: number): SnapshotElement | undefined {
  const pagers = snapshot.elements.filter(isPager);
  return pagers.find((e) => NEXT.test(e.text.trim())) ?? pagers.find((e) => e.text.trim() === String(page));
}

/** Whether an element can be opened to show what is inside it (a tree item, a section), not a dropdown. */
const openable = (e: SnapshotElement) => e.states.expanded === false && !isDropdownToggle(e) && !e.states.disabled;

/**
 * A target that is not shown may be inside a collapsed tree item or section: open those one at a time
 * (first in page order), each once, until it shows. Undefined when nothing is left to open.
 */
function expandToFind(step: Extract<SubStep, { kind: 'click' }>, ctx: ResolveContext): Resolution | undefined {
  if (step.strict || ctx.phase >= MAX_EXPANSIONS) return undefined;
  const opened = step.opened ?? [];
  const next = ctx.snapshot.elements.find((e) => openable(e) && !opened.includes(elementKey(e)));
  if (!next) return undefined;
  step.opened = [...opened, elementKey(next)];
  return act([click(next)], [next], `opened ${describeElement(next)} to look for ${quote(step.target.text)}`, {
    complete: false,
  });
}

export function resolveHover(step: Extract<SubStep, { kind: 'hover' }>, ctx: ResolveContext): Resolution {
  const match = findElement(ctx.snapshot, step.target, { avoid: ctx.avoid, anchor: ctx.anchor });
  if (!match) {
    if (step.target.text === '' && step.target.kind) return ambiguous(ctx.snapshot, step.target);
    return missing(step.target);
  }
  return act(
    [{ action: 'hover', index: match.element.index }],
    [match.element],
    `hovered over ${describeElement(match.element)}`,
  );
}

/** Keyboard focus into an element: a field by default ("focus into the textbox"). */
export function resolveFocus(step: Extract<SubStep, { kind: 'focus' }>, ctx: ResolveContext): Resolution {
  const target: Target = step.target.text === '' && !step.target.kind ? { text: '', kind: 'field' } : step.target;
  const match = findElement(ctx.snapshot, target, { avoid: ctx.avoid, anchor: ctx.anchor });
  if (!match) {
    if (target.text === '' && target.kind) return ambiguous(ctx.snapshot, target);
    return missing(target);
  }
  const e = match.element;
  if (e.states.focused) return { type: 'skip', note: `${describeTarget(e, target)} already had the focus` };
  return act([{ action: 'focus', index: e.index }], [e], `put the focus in ${describeTarget(e, target)}`, {
    endsBatch: false,
  });
}

const expandable = (e: SnapshotElement) => e.states.expanded !== undefined || e.tag === 'summary';

/** Opens or closes a section: clicks its toggle unless it already is that way. */
export function resolveExpand(step: Extract<SubStep, { kind: 'expand' }>, ctx: ResolveContext): Resolution {
  const options = { avoid: ctx.avoid, anchor: ctx.anchor };
  if (step.target.text === '') {
    // "expand the section": the one that is not yet that way, when it is the only one.
    const toggles = ctx.snapshot.elements.filter((e) => expandable(e) && !isDropdownToggle(e));
    const todo = toggles.filter((e) => e.states.expanded !== step.expanded);
    const picked = step.target.ordinal !== undefined ? toggles.at(step.target.ordinal - 1) : todo[0];
    if (!picked) {
      if (toggles.length > 0) return { type: 'skip', note: `the ${kindName('section')} was already ${verbOf(step)}` };
      return {
        type: 'missing',
        what: `a ${kindName(step.target.kind ?? 'section')} to ${step.expanded ? 'expand' : 'collapse'}`,
      };
    }
    return act([click(picked)], [picked], `${verbOf(step)} ${describeElement(picked)}`);
  }
  const match =
    findElement(ctx.snapshot, step.target, { ...options, accept: expandable }) ??
    findElement(ctx.snapshot, step.target, options);
  if (!match) return { type: 'missing', what: `the section ${quote(step.target.text)}`, waitText: step.target.text };
  const e = match.element;
  if (e.states.expanded === step.expanded)
    return { type: 'skip', note: `${describeElement(e)} was already ${verbOf(step)}` };
  return act([click(e)], [e], `${verbOf(step)} ${describeElement(e)}`);
}

const verbOf = (step: { expanded: boolean }) => (step.expanded ? 'expanded' : 'collapsed');

/** The value a slider shows: aria-valuenow, a range input's value, or the number written next to it. */
function sliderValue(e: SnapshotElement, snapshot: Snapshot): number | undefined {
  const aria = e.attributes['aria-valuenow'] ?? (e.tag === 'input' ? e.attributes.value : undefined);
  if (aria !== undefined && aria !== '' && Number.isFinite(Number(aria))) return Number(aria);
  const at = snapshot.text.indexOf(`[${e.index}]<`);
  if (at < 0) return undefined;
  const close = snapshot.text.indexOf('>', at);
  const after = snapshot.text.slice(close + 1, close + 120).replace('</>', '');
  const number = /^[^\d\-−[]*?([-−]?\d+(?:\.\d+)?)/.exec(after);
  return number ? Number(number[1]!.replace('−', '-')) : undefined;
}

/** Keys pressed per decision while moving a slider; the next decision reads where it got to. */
const MAX_KEYS_PER_STEP = 5;
const MAX_SLIDE_ROUNDS = 12;

/** Moves a slider to a value: a range input takes it typed; a custom slider is moved with arrow keys. */
export function resolveSlide(step: Extract<SubStep, { kind: 'slide' }>, ctx: ResolveContext): Resolution {
  const target: Target = step.target.text === '' ? { text: '', kind: 'slider' } : step.target;
  // By its words among the sliders, else the page's only slider ("the volume slider" may have no name).
  const match =
    findElement(ctx.snapshot, target, { avoid: ctx.avoid, accept: isSlider }) ??
    findElement(ctx.snapshot, { text: '', kind: 'slider' }, { avoid: ctx.avoid });
  if (!match) return ambiguous(ctx.snapshot, { ...target, text: '', kind: 'slider' });
  const e = match.element;
  const note = `moved ${describeTarget(e, target)} to ${step.value}`;
  if (e.tag === 'input' && e.attributes.type === 'range') {
    return act([{ action: 'type', index: e.index, text: String(step.value), clear: true, submit: false }], [e], note, {
      endsBatch: false,
    });
  }
  const now = sliderValue(e, ctx.snapshot);
  if (now === step.value)
    return ctx.phase > 0
      ? { type: 'skip', note }
      : { type: 'skip', note: `${describeElement(e)} was already at ${step.value}` };
  if (now === undefined || ctx.phase >= MAX_SLIDE_ROUNDS) {
    return { type: 'missing', what: `the value of ${describeElement(e)} (I cannot read where it is)`, strict: true };
  }
  const key = now < step.value ? 'ArrowRight' : 'ArrowLeft';
  const presses = Math.min(MAX_KEYS_PER_STEP, Math.abs(step.value - now));
  const actions = Array.from({ length: presses }, () => ({
    action: 'press_key' as const,
    key,
    modifiers: [],
    index: e.index,
  }));
  return act(
    actions,
    actions.map(() => e),
    note,
    { complete: false },
  );
}

/** Whether the words are on screen: in an element's label or in the page text. */
export function visible(snapshot: Snapshot, text: string): boolean {
  return (
    snapshot.elements.some((e) => e.in_viewport && containsWords(`${e.name} ${e.text}`, text)) ||
    snapshot.text.split('\n').some((line) => containsWords(line, text))
  );
}

export function resolveScroll(step: Extract<SubStep, { kind: 'scroll' }>, ctx: ResolveContext): Resolution {
  const { scroll } = ctx.snapshot;
  if (step.within) return scrollWithin(step, step.within, ctx);
  if (step.to) {
    const left = step.to === 'bottom' ? scroll.below_px : scroll.above_px;
    if (left <= 1) return { type: 'skip', note: `scrolled to the ${step.to}` };
    // A page that keeps loading more has no bottom: say how far it went rather than that it got there.
    if (ctx.phase >= MAX_SCROLL_ROUNDS)
      return { type: 'skip', note: `scrolled ${step.direction} ${ctx.phase} times (the page kept growing)` };
    return act(
      [{ action: 'scroll', direction: step.direction, amount: 10 }],
      [undefined],
      `scrolled to the ${step.to}`,
      {
        complete: false,
      },
    );
  }
  if (step.target !== undefined) {
    if (visible(ctx.snapshot, step.target)) return { type: 'skip', note: `scrolled to ${quote(step.target)}` };
    const left = step.direction === 'down' ? scroll.below_px : scroll.above_px;
    if (left <= 1 || ctx.phase >= MAX_SCROLL_ROUNDS) return { type: 'missing', what: quote(step.target) };
    return act(
      [{ action: 'scroll', direction: step.direction, amount: 1 }],
      [undefined],
      `scrolled to ${quote(step.target)}`,
      {
        complete: false,
      },
    );
  }
  const amount = step.amount;
  return act([{ action: 'scroll', direction: step.direction, amount }], [undefined], `scrolled ${step.direction}`);
}

/**
 * Scrolls one box (a scrolling list, a textarea of terms) to its top or bottom: rounds while the
 * snapshot says how much is left, one long scroll when it cannot tell (a textarea).
 */
function scrollWithin(step: Extract<SubStep, { kind: 'scroll' }>, within: Target, ctx: ResolveContext): Resolution {
  const canScroll = (e: SnapshotElement) => e.scroll !== undefined || e.tag === 'textarea';
  // By name first, whatever kind the words said ("the terms box" is no checkbox): it is a box that scrolls.
  const named = within.text === '' ? within : { text: within.text };
  const match =
    findElement(ctx.snapshot, named, { accept: canScroll, avoid: ctx.avoid }) ??
    (within.text === '' ? undefined : findElement(ctx.snapshot, within, { avoid: ctx.avoid }));
  const box = match?.element ?? (within.text === '' ? ctx.snapshot.elements.filter(canScroll)[0] : undefined);
  if (!box) return { type: 'missing', what: quote(within.text || 'a box to scroll'), waitText: within.text };
  const where = step.to ?? step.direction;
  const left = step.to === 'top' ? box.scroll?.above_px : box.scroll?.below_px;
  if (left !== undefined && left <= 1)
    return { type: 'skip', note: `scrolled ${describeElement(box)} to the ${where}` };
  const more = left !== undefined && ctx.phase < MAX_SCROLL_ROUNDS;
  return act(
    [{ action: 'scroll', index: box.index, direction: step.direction, amount: step.to ? 10 : step.amount }],
    [box],
    `scrolled ${describeElement(box)} to the ${where}`,
    { complete: !more },
  );
}

/** How well an element's words fit a text, for picking among suggestions. */
export const fits = (e: SnapshotElement, text: string) => Math.max(textScore(text, e.name), textScore(text, e.text));
