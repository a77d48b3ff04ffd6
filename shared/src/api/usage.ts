import { z } from 'zod';

// Usage and quotas as the console shows them: per day and per API key.

/** The longest stretch one usage call covers. */
export const MAX_USAGE_DAYS = 366;

export const UsageQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_USAGE_DAYS)
    .default(30)
    .describe('How many days back, today included (UTC).'),
});
export type UsageQuery = z.infer<typeof UsageQuery>;

export const UsageCounts = z.object({
  steps: z.int().min(0).describe('Agent steps.'),
  prompt_tokens: z.int().min(0),
  completion_tokens: z.int().min(0),
  retrieve_calls: z.int().min(0).describe('Retrieve calls answered.'),
});
export type UsageCounts = z.infer<typeof UsageCounts>;

export const UsageDay = UsageCounts.extend({
  day: z.string().describe('YYYY-MM-DD, UTC.'),
  keys: z
    .array(UsageCounts.extend({ key_id: z.string().describe('The API key, or "" for work no key asked for.') }))
    .describe('The day per API key.'),
}).meta({ id: 'UsageDay' });
export type UsageDay = z.infer<typeof UsageDay>;

export const UsageByKey = UsageCounts.extend({
  key_id: z.string(),
  name: z.string().describe('The key\'s name ("" for work no key asked for).'),
  prefix: z.string(),
  revoked: z.boolean(),
}).meta({ id: 'UsageByKey' });
export type UsageByKey = z.infer<typeof UsageByKey>;

export const QuotaInfo = z
  .object({
    monthly_steps: z.int().nullable().describe('Steps allowed per calendar month (UTC); null: unlimited.'),
    used: z.int().min(0).describe('Steps run this month.'),
    resets_at: z.string().describe('When the count starts again (the first of next month, UTC).'),
  })
  .meta({ id: 'QuotaInfo' });
export type QuotaInfo = z.infer<typeof QuotaInfo>;

export const UsageResponse = z
  .object({
    from: z.string().describe('First day covered (YYYY-MM-DD).'),
    to: z.string().describe('Last day covered (today, UTC).'),
    totals: UsageCounts,
    days: z.array(UsageDay).describe('Every day of the period, oldest first (days without use are zeros).'),
    keys: z.array(UsageByKey).describe('The period per API key, most steps first.'),
    quota: QuotaInfo,
  })
  .meta({ id: 'UsageResponse' });
export type UsageResponse = z.infer<typeof UsageResponse>;
