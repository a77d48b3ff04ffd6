import { z } from 'zod';
import { HostPattern } from './console';

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
  .record(SecretName, z.string().min(MIN_SECRET_CHARS).max(MAX_SECRET_CHARS).meta({ writeOnly: true }))
  .meta({ writeOnly: true })
  .describe(
    'Values for `<secret:name>` placeholders in cmd, for this call only ({"name": "value"}). The model sees only the placeholder; the value is typed where the agent types the placeholder, on any site, and is masked in every answer, page snapshot and log. A name also in the account\'s secret store overrides it for the call.',
  );

// The secret store as the admin API shows it: names and sites, never values.

export const SecretNameParams = z.object({ name: SecretName });
export type SecretNameParams = z.infer<typeof SecretNameParams>;

export const SecretInfo = z
  .object({
    name: z.string().describe('Write it as <secret:name> in a cmd.'),
    host_pattern: z.string().nullable().describe('Where it may be typed; null: on any site.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .describe('A stored secret: its value is never shown again.')
  .meta({ id: 'SecretInfo' });
export type SecretInfo = z.infer<typeof SecretInfo>;

export const SecretsResponse = z.object({ secrets: z.array(SecretInfo) }).meta({ id: 'SecretsResponse' });
export type SecretsResponse = z.infer<typeof SecretsResponse>;

export const PutSecretRequest = z
  .object({
    value: z
      .string()
      .min(MIN_SECRET_CHARS)
      .max(MAX_SECRET_CHARS)
      .meta({ writeOnly: true })
      .describe('The value: stored, typed by the relay where a task says <secret:name>, never shown again.'),
    host_pattern: HostPattern.nullable()
      .default(null)
      .describe('Where it may be typed: example.com (and its subdomains) or *.example.com; null or *: any site.'),
  })
  .meta({ id: 'PutSecretRequest' });
export type PutSecretRequest = z.infer<typeof PutSecretRequest>;
