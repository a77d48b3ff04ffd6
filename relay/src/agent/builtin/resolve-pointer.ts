import type { Snapshot, SnapshotElement } from '@tandem/shared';
import { isCheckable } from './elements';
import { findElement } from './match';
import { act, describeElement, quote, type Resolution, type ResolveContext } from './resolution';
import { click } from './resolve-forms';
import type { SubStep } from './substeps';
import { containsWords } from './text';

/** The most rounds a "scroll to the bottom / to X" sub-step takes. */
const MAX_SCROLL_ROUNDS = 12;

export function resolveClick(step: Extract<SubStep, { kind: 'click' }>, ctx: ResolveContext): Resolution {
  const match = findElement(ctx.snapshot, step.target, {
    avoid: ctx.avoid,
    anchor: ctx.anchor,
    threshold: step.strict ? 0.75 : 0.5,
  });
  if (!match)
    return { type: 'missing', what: quote(step.target.text), waitText: step.target.text, strict: step.strict };
  const e = match.element;
  if (step.ensureChecked && isCheckable(e)) {
    if (e.states.checked === true) return { type: 'skip', note: `${describeElement(e)} was already ticked` };
    return act([{ action: 'check', index: e.index, checked: true }], [e], `ticked ${describeElement(e)}`, {
      endsBatch: false,
    });
  }
  const verb = step.double ? 'double-clicked' : 'clicked';
  return act([{ action: 'click', index: e.index, double: step.double === true }], [e], `${verb} ${describeElement(e)}`);
}

export function resolveHover(step: Extract<SubStep, { kind: 'hover' }>, ctx: ResolveContext): Resolution {
  const match = findElement(ctx.snapshot, step.target, { avoid: ctx.avoid, anchor: ctx.anchor });
  if (!match) return { type: 'missing', what: quote(step.target.text), waitText: step.target.text };
  return act(
    [{ action: 'hover', index: match.element.index }],
    [match.element],
    `hovered over ${describeElement(match.element)}`,
  );
}

const CLOSE_WORDS = ['close', 'dismiss', 'no thanks', 'cancel', 'got it', 'ok'];

/** Closes a dialog or banner with its close button; Escape when it has none. */
export function resolveDismiss(ctx: ResolveContext): Resolution {
  for (const text of CLOSE_WORDS) {
    const match = findElement(ctx.snapshot, { text, kind: 'button' }, { threshold: 0.75 });
    if (match) return act([click(match.element)], [match.element], `closed it with ${describeElement(match.element)}`);
  }
  return act([{ action: 'press_key', key: 'Escape', modifiers: [] }], [undefined], 'pressed Escape to close it');
}

const expandable = (e: SnapshotElement) => e.states.expanded !== undefined || e.tag === 'summary';

/** Opens or closes a section: clicks its toggle unless it already is that way. */
export function resolveExpand(step: Extract<SubStep, { kind: 'expand' }>, ctx: ResolveContext): Resolution {
  const options = { avoid: ctx.avoid, anchor: ctx.anchor };
  const match =
    findElement(ctx.snapshot, step.target, { ...options, accept: expandable }) ??
    findElement(ctx.snapshot, step.target, options);
  if (!match) return { type: 'missing', what: `the section ${quote(step.target.text)}`, waitText: step.target.text };
  const e = match.element;
  const verb = step.expanded ? 'expanded' : 'collapsed';
  if (e.states.expanded === step.expanded) return { type: 'skip', note: `${describeElement(e)} was already ${verb}` };
  return act([click(e)], [e], `${verb} ${describeElement(e)}`);
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
  if (step.to) {
    const left = step.to === 'bottom' ? scroll.below_px : scroll.above_px;
    if (left <= 1 || ctx.phase >= MAX_SCROLL_ROUNDS) return { type: 'skip', note: `scrolled to the ${step.to}` };
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
