import { z } from 'zod';

/** How `<secret:name>` spells a name: letters, digits, `_`, `.` and `-`, at most 64 of them. */
const NAME = '[A-Za-z0-9_.-]{1,64}';

/** `<secret:name>` anywhere in a text; the name is group 1. */
export const SECRET_PLACEHOLDER = new RegExp(`<secret:(${NAME})>`, 'g');

/** The longest secret value accepted (a password, a token, a card number; not a document). */
export const MAX_SECRET_CHARS = 4096;
/** The shortest: a shorter value would be masked wherever its letters occur in a page, wrecking the page's text. */
export const MIN_SECRET_CHARS = 4;

export const SecretName = z
  .string()
  .regex(new RegExp(`^${NAME}$`))
  .describe('A secret name: letters, digits, "_", "." and "-", at most 64 characters.');

/** The placeholder the model and every log see in place of a secret's value. */
export const secretPlaceholder = (name: string): string => `<secret:${name}>`;

/** The distinct secret names a text refers to, in order of first use. */
export function secretNames(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(SECRET_PLACEHOLDER), (m) => m[1] as string))];
}

/** `optional_params.secrets`: values for this call's placeholders; never echoed, not even in a 422. */
export const CallSecrets = z
  .record(SecretName, z.string().min(MIN_SECRET_CHARS).max(MAX_SECRET_CHARS))
  .describe(
    'Values for `<secret:name>` placeholders in cmd, for this call only ({"name": "value"}). The model sees only the placeholder; the value is typed where the agent types the placeholder, on any site, and is masked in every answer, page snapshot and log. A name also in the account\'s secret store overrides it for the call.',
  );
