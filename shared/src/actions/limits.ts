// Plain constants shared by the schemas and the page runtime; no zod here, so the runtime
// bundle can import them without pulling zod into pages.

/** Longest a single wait may last, so a step can never hang the session. */
export const MAX_WAIT_MS = 30_000;
/** A plain wait when no `ms` is given. */
export const DEFAULT_WAIT_MS = 1_000;
/** How long to wait for `until_text` when no `ms` is given. */
export const DEFAULT_TEXT_WAIT_MS = 10_000;

/**
 * Input types a trusted driver fills key by key. The others (dates, colours, ranges, files) have no
 * text caret, so their value is set through the page runtime instead.
 */
export const KEYSTROKE_INPUT_TYPES: readonly string[] = ['text', 'search', 'email', 'url', 'tel', 'password', 'number'];

/**
 * What a finished `type` into a password field says, whichever path typed it (the runtime's setter, the
 * relay's trusted keystrokes, the extension's debugger input): its length, never its text, since action
 * results reach the model, the logs and the client.
 */
export function passwordTypedMessage(length: number, submitted: boolean): string {
  return `Typed ${length} characters into the password field${submitted ? ' and pressed Enter' : ''}.`;
}
