// What is typed how, what is secret, and how an input action's outcome is told: one module that the
// page runtime, the relay's Playwright driver and the extension all use, so the same action on the
// same page reads the same whichever driver ran it. Plain functions over plain values: no DOM, and
// strings only through the captured builtins (the runtime calls them inside pages that may have
// patched String.prototype).
import { capText } from '../page/text';

/**
 * Input types a trusted driver fills key by key. The others (dates, colours, ranges, files) have no
 * text caret, so their value is set through the page runtime instead.
 */
export const KEYSTROKE_INPUT_TYPES: readonly string[] = ['text', 'search', 'email', 'url', 'tel', 'password', 'number'];

/** Whether keystrokes fill the element: text-like inputs (`type` lower-cased), textareas, editable content. */
export function takesKeystrokes(tag: string, type: string | undefined, editable: boolean): boolean {
  if (tag === 'textarea' || editable) return true;
  if (tag !== 'input') return false;
  const t = type || 'text';
  for (let i = 0; i < KEYSTROKE_INPUT_TYPES.length; i++) if (KEYSTROKE_INPUT_TYPES[i] === t) return true;
  return false;
}

/** Whether what is typed into the element is never repeated: password inputs (`type` lower-cased). */
export function isSecretInput(tag: string, type: string | undefined): boolean {
  return tag === 'input' && type === 'password';
}

/**
 * What a finished `type` into a password field says, whichever path typed it: its length, never its
 * text, since action results reach the model, the logs and the client.
 */
export function passwordTypedMessage(length: number, submitted: boolean): string {
  return `Typed ${length} characters into the password field${submitted ? ' and pressed Enter' : ''}.`;
}

export interface TypedField {
  /** The field as messages name it: `<input "Email"> [4]`. */
  target: string;
  /** The input type (`text`, `date`, …), or the tag for textareas and editable content. */
  kind: string;
  /** Its value after typing (before any Enter). */
  value: string;
  /** The text the agent asked for. */
  asked: string;
  secret: boolean;
  submitted: boolean;
}

/**
 * How a `type` action ended, told from the field itself: a secret field by length only; a field that
 * holds nothing after text was typed (a date, number or email input that cannot hold it, a page that
 * swallowed the keys) as not taken, rather than "ok" for nothing; otherwise what the field now holds.
 */
export function typeOutcome(field: TypedField): { code: 'ok' | 'invalid_target'; message: string } {
  if (field.secret) return { code: 'ok', message: passwordTypedMessage(field.asked.length, field.submitted) };
  if (field.value === '' && field.asked !== '' && !field.submitted) {
    return {
      code: 'invalid_target',
      message: `${field.target} did not take "${capText(field.asked, 60)}": it is a ${field.kind} field and holds nothing now.`,
    };
  }
  const enter = field.submitted ? ', then Enter was pressed' : '';
  return { code: 'ok', message: `Typed into ${field.target}; it now holds "${capText(field.value, 100)}"${enter}.` };
}

/**
 * Whether a field's value holds the typed text's letters and digits (a page may reformat what was
 * typed: `4111 1111 …`). The drivers use it after trusted keystrokes: a page that swallowed the keys
 * gets the runtime's setter instead. Not for the runtime itself (it uses the string builtins).
 */
export function fieldTookText(value: string, text: string): boolean {
  const plain = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return plain(value).includes(plain(text));
}

/** A click on a file input: refused, since a file chooser would wait for a person. */
export function fileFieldRefusal(index: number): string {
  return `[${index}] is a file upload field; uploading files is not supported, so it was not clicked.`;
}

export function clickedMessage(target: string): string {
  return `Clicked ${target}.`;
}

export function pressedMessage(combo: string, target: string | undefined): string {
  return target ? `Pressed ${combo} on ${target}.` : `Pressed ${combo}.`;
}
