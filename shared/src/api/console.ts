import { z } from 'zod';

// The admin API (/v1/console/…): what the console's pages do, for scripts. Times are ISO 8601 (UTC).

const When = z.string().describe('ISO 8601, UTC.');

export const ConsoleIdParams = z.object({
  id: z.string().min(1).max(100).describe('The object id (key_…, skl_…, dev_…).'),
});
export type ConsoleIdParams = z.infer<typeof ConsoleIdParams>;

export const Removed = z
  .object({ id: z.string(), removed: z.literal(true) })
  .describe('The object is gone (a revoked key or device works no more).');
export type Removed = z.infer<typeof Removed>;

export const CreateApiKeyRequest = z
  .object({ name: z.string().trim().min(1).max(100).describe('What the key is for, shown in lists.') })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

export const ApiKeyInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart.'),
    created_at: When,
    last_used_at: When.nullable().describe('Updated at most once a minute; null: never used.'),
  })
  .meta({ id: 'ApiKeyInfo' });
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

export const CreatedApiKey = ApiKeyInfo.extend({
  key: z.string().describe('The key itself: shown this once, stored only as a hash.'),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeysResponse = z.object({ api_keys: z.array(ApiKeyInfo) }).meta({ id: 'ApiKeysResponse' });
export type ApiKeysResponse = z.infer<typeof ApiKeysResponse>;

/** A host pattern: `example.com` (and its subdomains), `*.example.com` (subdomains only), `*` (every site). */
export const HostPattern = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\*|(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*)$/,
    'a host pattern: example.com (and its subdomains), *.example.com (subdomains only) or *',
  )
  .max(253)
  .describe('example.com (and its subdomains), *.example.com (subdomains only), or * (every site).');

const SkillRule = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .describe('The rule, in plain words ("Never tick Keep me signed in").');

export const CreateSkillRequest = z
  .object({
    host_pattern: HostPattern,
    rule: SkillRule,
    enabled: z.boolean().default(true).describe('Whether the agent reads it (a disabled rule is kept, unused).'),
  })
  .meta({ id: 'CreateSkillRequest' });
export type CreateSkillRequest = z.infer<typeof CreateSkillRequest>;

export const UpdateSkillRequest = z
  .object({
    host_pattern: HostPattern.optional(),
    rule: SkillRule.optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'UpdateSkillRequest' });
export type UpdateSkillRequest = z.infer<typeof UpdateSkillRequest>;

export const SkillInfo = z
  .object({
    id: z.string(),
    host_pattern: z.string(),
    rule: z.string(),
    enabled: z.boolean(),
    created_at: When,
    updated_at: When,
  })
  .meta({ id: 'SkillInfo' });
export type SkillInfo = z.infer<typeof SkillInfo>;

export const SkillsResponse = z.object({ skills: z.array(SkillInfo) }).meta({ id: 'SkillsResponse' });
export type SkillsResponse = z.infer<typeof SkillsResponse>;

export const SkillPreviewRequest = z
  .object({ url: z.url().max(2000).describe('A page the agent might work on.') })
  .meta({ id: 'SkillPreviewRequest' });
export type SkillPreviewRequest = z.infer<typeof SkillPreviewRequest>;

export const SkillPreviewResponse = z
  .object({
    url: z.string(),
    skills: z
      .array(SkillInfo)
      .describe('The enabled skills whose pattern matches the URL: what the agent reads there, oldest first.'),
  })
  .meta({ id: 'SkillPreviewResponse' });
export type SkillPreviewResponse = z.infer<typeof SkillPreviewResponse>;

export const DeviceInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: When,
    last_seen_at: When.nullable(),
    connected: z.boolean().describe('Its extension holds a socket to this relay now.'),
    api_enabled: z.boolean().describe('Its API Enabled switch, as last reported.'),
  })
  .meta({ id: 'DeviceInfo' });
export type DeviceInfo = z.infer<typeof DeviceInfo>;

export const DevicesResponse = z.object({ devices: z.array(DeviceInfo) }).meta({ id: 'DevicesResponse' });
export type DevicesResponse = z.infer<typeof DevicesResponse>;

export const PairingCode = z
  .object({
    code: z.string().describe('Type it into the extension popup instead of a password: good once.'),
    expires_at: When,
  })
  .meta({ id: 'PairingCode' });
export type PairingCode = z.infer<typeof PairingCode>;

/** Most host patterns in one guardrail list: a list is read on every connection a session opens. */
export const MAX_GUARDRAIL_HOSTS = 500;

export const Guardrails = z
  .object({
    blocked_hosts: z
      .array(HostPattern)
      .max(MAX_GUARDRAIL_HOSTS)
      .describe('Hosts sessions never open (patterns as for skills).'),
    allowed_hosts: z
      .array(HostPattern)
      .max(MAX_GUARDRAIL_HOSTS)
      .describe('When not empty: the only hosts sessions open (allowed-hosts-only mode).'),
  })
  .meta({ id: 'GuardrailsRequest' });
export type Guardrails = z.infer<typeof Guardrails>;

export const GuardrailsResponse = Guardrails.extend({
  file_uploads: z
    .literal('blocked')
    .describe('Uploads are never made, in either mode: file choosers stay closed and the agent hears so.'),
}).meta({ id: 'Guardrails' });
export type GuardrailsResponse = z.infer<typeof GuardrailsResponse>;
