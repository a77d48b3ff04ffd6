import type { KeyModifier } from '@tandem/shared';

/** What kind of element an instruction names ("the Send button", "the Reviews tab"): a hint, not a filter. */
export type TargetKind =
  | 'button'
  | 'link'
  | 'tab'
  | 'checkbox'
  | 'radio'
  | 'menuitem'
  | 'option'
  | 'field'
  | 'dropdown'
  | 'section'
  | 'result';

/** An element named in the instruction, in the user's words. */
export interface Target {
  text: string;
  kind?: TargetKind | undefined;
  /** "the second result" → 2; -1 for "the last". */
  ordinal?: number | undefined;
}

/**
 * One value for one field. `field` is undefined when the instruction named no field ("type hello").
 * `raw` holds unquoted "field value" words ("the username admin") that are split against the page.
 */
export interface FieldEntry {
  value: string;
  field?: string | undefined;
  raw?: string | undefined;
}

/** One sub-step of a parsed instruction; the planner turns each into actions against the current page. */
export type SubStep =
  | { kind: 'navigate'; url: string }
  | { kind: 'back' }
  | { kind: 'reload' }
  /** Close a dialog, popup or banner: its close button, else Escape. */
  | { kind: 'dismiss' }
  | { kind: 'forward' }
  | { kind: 'click'; target: Target; double?: boolean; ensureChecked?: boolean; strict?: boolean }
  | { kind: 'hover'; target: Target }
  | { kind: 'fill'; entry: FieldEntry }
  | { kind: 'select'; option: string; field?: string | undefined }
  | { kind: 'check'; target: Target; checked: boolean }
  | { kind: 'expand'; target: Target; expanded: boolean }
  | { kind: 'press'; key: string; modifiers: KeyModifier[] }
  | { kind: 'submit' }
  | { kind: 'scroll'; direction: 'up' | 'down'; amount: number; to?: 'top' | 'bottom' | undefined; target?: string }
  | { kind: 'search'; query: string }
  | { kind: 'login'; user: string; password: string }
  | { kind: 'wait'; ms?: number | undefined; text?: string | undefined }
  | { kind: 'question'; question: string }
  | { kind: 'unknown'; text: string };

export type SubStepKind = SubStep['kind'];
