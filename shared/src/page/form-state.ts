// What a parked session keeps of a page's forms (read and written by forms.ts in the page); no DOM here,
// so the relay can use the types.

/** A changed field: where it is, and what it holds. */
export interface FieldValue {
  /** A CSS selector that found exactly this field when it was read. */
  selector: string;
  kind: 'value' | 'checked' | 'select';
  /** The text (value), "true"/"false" (checked), or the selected option indices joined by commas. */
  value: string;
}

export interface FormState {
  fields: FieldValue[];
  /** What cannot come back (a file input with a file chosen), in words. */
  lost: string[];
}
