// Plain constants shared by the schemas and the page runtime; no zod here, so the runtime
// bundle can import them without pulling zod into pages.

/** Longest a single wait may last, so a step can never hang the session. */
export const MAX_WAIT_MS = 30_000;
/** A plain wait when no `ms` is given. */
export const DEFAULT_WAIT_MS = 1_000;
/** How long to wait for `until_text` when no `ms` is given. */
export const DEFAULT_TEXT_WAIT_MS = 10_000;
