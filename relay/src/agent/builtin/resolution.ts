import type { Action, Snapshot, SnapshotElement } from '@tandem/shared';
import { excerpt } from '../quote';
import type { Point } from './match';
import type { SubStep, Target, TargetKind } from './substeps';

/** What a resolver may look at: the page, the sub-step's progress, and what to steer clear of. */
export interface ResolveContext {
  snapshot: Snapshot;
  /** Progress within a multi-step sub-step (0 = not started; e.g. 1 = the dropdown is open). */
  phase: number;
  /** Elements that failed for this sub-step before (by elementKey). */
  avoid: string[];
  anchor?: Point | undefined;
  /** Elements already used by earlier actions of the same decision (one field gets one value). */
  used: Set<number>;
  /** The sub-step after this one: "enter X in the textbox and press Search" pairs the box with that button. */
  following?: SubStep | undefined;
}

/** What an action should have changed, checked in the next snapshot (the same index names the same element). */
export interface Expectation {
  index: number;
  value?: string | undefined;
  checked?: boolean | undefined;
}

/** How a sub-step meets the current page. */
export type Resolution =
  | {
      type: 'act';
      actions: Action[];
      /** The element each action targets (elementKey), to avoid it when it fails. */
      elements: (SnapshotElement | undefined)[];
      /** What was done, for the final summary. */
      note: string;
      /** The action may change the page: nothing else goes in this decision after it. */
      endsBatch: boolean;
      /** false: the sub-step needs another round on the next page state (phase + 1). */
      complete: boolean;
      /** What the page should show afterwards; a mismatch counts as a failed action. */
      expects?: Expectation[] | undefined;
    }
  /** Nothing to do (a box already ticked, the page already at the bottom). */
  | { type: 'skip'; note: string }
  /** The sub-step stands for other sub-steps (a field that turned out to be a custom dropdown). */
  | { type: 'splice'; steps: SubStep[] }
  /** The target is not on the page (yet): wait, scroll, or ask. `strict`: it was a guess at the words. */
  | { type: 'missing'; what: string; waitText?: string | undefined; strict?: boolean; question?: boolean }
  | { type: 'ask'; question: string }
  | { type: 'answer'; text: string };

export function act(
  actions: Action[],
  elements: (SnapshotElement | undefined)[],
  note: string,
  opts: { endsBatch?: boolean; complete?: boolean; expect?: Expectation | undefined } = {},
): Extract<Resolution, { type: 'act' }> {
  return {
    type: 'act',
    actions,
    elements,
    note,
    endsBatch: opts.endsBatch ?? true,
    complete: opts.complete ?? true,
    expects: opts.expect ? [opts.expect] : undefined,
  };
}

/** The user's words or an element's name in quotes, cut short when long. */
export const quote = (text: string) => `"${excerpt(text)}"`;

/** A name for an element in what the user reads: its label, else what it is; never its index. */
export function describeElement(e: SnapshotElement): string {
  // A list's text is its chosen option, not a name for it.
  const label = (e.name || (e.tag === 'select' ? '' : e.text) || e.attributes.placeholder || '').trim();
  if (label) return quote(label.length > 60 ? `${label.slice(0, 57)}…` : label);
  const what = whatItIs(e);
  if (e.attributes.hint) return `the "${e.attributes.hint}" ${what}`;
  if (e.attributes.name) return `the ${what} "${e.attributes.name}"`;
  return `the ${what}`;
}

/** What an unnamed element is, in words: "text field", "checkbox", "button". */
function whatItIs(e: SnapshotElement): string {
  const type = (e.attributes.type ?? '').toLowerCase();
  if (e.tag === 'input' && (type === 'checkbox' || type === 'radio'))
    return type === 'radio' ? 'radio button' : 'checkbox';
  if (e.tag === 'input' && (type === 'date' || type === 'time')) return `${type} field`;
  if (e.tag === 'input' && (type === 'submit' || type === 'button')) return 'button';
  if (e.tag === 'input' || e.tag === 'textarea' || e.role === 'textbox') return 'text field';
  if (e.tag === 'select') return 'list';
  if (e.role) return e.role;
  if (e.tag === 'a') return 'link';
  if (e.tag === 'button') return 'button';
  if (e.tag === 'img' || e.tag === 'svg') return 'image';
  return 'control';
}

const KIND_NAMES: Record<TargetKind, string> = {
  button: 'button',
  link: 'link',
  tab: 'tab',
  checkbox: 'checkbox',
  radio: 'radio button',
  menuitem: 'menu item',
  option: 'option',
  field: 'text field',
  dropdown: 'list',
  section: 'section',
  result: 'result',
  slider: 'slider',
  icon: 'icon',
};

/** A kind of element in words, for messages. */
export const kindName = (kind: TargetKind): string => KIND_NAMES[kind];

/** "1st ", "2nd ", "last ": an ordinal in words, for messages. */
function ordinalWords(ordinal: number | undefined): string {
  if (ordinal === undefined) return '';
  if (ordinal < 0) return ordinal === -1 ? 'last ' : `${-ordinal}th from last `;
  const suffix = ordinal % 100 >= 11 && ordinal % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][ordinal % 10] ?? 'th');
  return `${ordinal}${suffix} `;
}

/**
 * An element the user picked out by kind or words: its name when it has one, else the user's own words
 * for it ("the 2nd checkbox", "the trash icon") rather than what the page calls it.
 */
export function describeTarget(e: SnapshotElement, target: Target): string {
  const plain = describeElement(e);
  if (!plain.startsWith('the ')) return plain;
  const kind = target.kind ? kindName(target.kind) : '';
  if (target.text === '' && kind) return `the ${ordinalWords(target.ordinal)}${kind}`;
  if (target.text) return `the ${ordinalWords(target.ordinal)}${excerpt(target.text)}${kind ? ` ${kind}` : ''}`;
  return plain;
}
