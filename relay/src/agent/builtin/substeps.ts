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
  | 'result'
  | 'slider'
  | 'icon';

/** An element named in the instruction, in the user's words. */
export interface Target {
  /** The words naming it; "" when only its kind was named ("the button", "the 2nd checkbox"). */
  text: string;
  kind?: TargetKind | undefined;
  /** "the second result" → 2; -1 for "the last". */
  ordinal?: number | undefined;
  /** "both fields", "all the boxes", "the boxes": every element that fits. */
  all?: boolean | undefined;
  /** Results counted on earlier pages while looking for the nth result across pagination. */
  offset?: number | undefined;
}

/** What a value the user only described must look like: "an item that starts with Egy and ends with pt". */
export interface ValueShape {
  startsWith?: string | undefined;
  endsWith?: string | undefined;
  contains?: string | undefined;
}

/**
 * One value for one field. `field` is undefined when the instruction named no field ("type hello").
 * `raw` holds unquoted "field value" words ("the username admin") that are split against the page.
 */
export interface FieldEntry {
  value: string;
  field?: string | undefined;
  raw?: string | undefined;
  /** "the text field": a field is meant but not named; it must be the only one. */
  generic?: boolean | undefined;
  /** Every field that fits gets the value ("into both text fields"). */
  all?: boolean | undefined;
  /** Words that may name the field without being its label ("a country that starts with…"): preferred, not required. */
  hint?: string | undefined;
  /** The value was described, not given: type its start, then pick the suggestion that fits. */
  shape?: ValueShape | undefined;
  /** The words said no value ("something sensible"): the user is asked for one. */
  vague?: boolean | undefined;
}

/** One sub-step of a parsed instruction; the planner turns each into actions against the current page. */
export type SubStep =
  | { kind: 'navigate'; url: string }
  | { kind: 'back' }
  | { kind: 'reload' }
  /** Close a dialog, popup or banner: its close button, else Escape. */
  | { kind: 'dismiss' }
  | { kind: 'forward' }
  | {
      kind: 'click';
      target: Target;
      double?: boolean;
      ensureChecked?: boolean;
      strict?: boolean;
      /** Collapsed items opened while looking for the target (by elementKey). */
      opened?: string[];
    }
  | { kind: 'hover'; target: Target }
  | { kind: 'fill'; entry: FieldEntry }
  | { kind: 'select'; option: string; field?: string | undefined }
  | { kind: 'check'; target: Target; checked: boolean }
  | { kind: 'expand'; target: Target; expanded: boolean }
  | { kind: 'press'; key: string; modifiers: KeyModifier[] }
  /** `implicit`: not said in words, but "enter X" on its own means typing it and sending it. */
  | { kind: 'submit'; implicit?: boolean }
  | {
      kind: 'scroll';
      direction: 'up' | 'down';
      amount: number;
      to?: 'top' | 'bottom' | undefined;
      target?: string;
      /** The box that scrolls ("the bottom of the textarea"); the page when undefined. */
      within?: Target | undefined;
    }
  | { kind: 'search'; query: string }
  | { kind: 'login'; user: string; password: string }
  | { kind: 'wait'; ms?: number | undefined; text?: string | undefined }
  | { kind: 'question'; question: string }
  /** Put keyboard focus into an element. */
  | { kind: 'focus'; target: Target }
  /** Move a slider to a value. */
  | { kind: 'slide'; target: Target; value: number }
  /** Words that set the scene ("navigate through the file tree"): nothing to do by themselves. */
  | { kind: 'context'; text: string }
  /** `why`: what made it unreadable, when it is not just words the grammar does not know. */
  | { kind: 'unknown'; text: string; why?: string | undefined };

export type SubStepKind = SubStep['kind'];
