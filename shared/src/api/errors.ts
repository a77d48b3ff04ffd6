import { z } from 'zod';

/** One validation problem, in the FastAPI/pydantic shape. */
export const ValidationIssue = z
  .object({
    loc: z
      .array(z.union([z.string(), z.int()]))
      .describe('Where the problem is, e.g. ["body", "cmd"] or ["path", "session_id"].'),
    msg: z.string().describe('What is wrong, in words.'),
    type: z.string().describe('Machine-readable kind, e.g. missing, string_type, enum, json_invalid.'),
    input: z.unknown().optional().describe('The offending value, when there was one.'),
    ctx: z.record(z.string(), z.unknown()).optional().describe('Details such as the expected values.'),
  })
  .meta({ id: 'ValidationIssue' });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** 422 body. */
export const ValidationErrorBody = z
  .object({ detail: z.array(ValidationIssue).optional().describe('List of validation problems.') })
  .meta({ id: 'HTTPValidationError' });
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>;

/** Every error other than 422. */
export const ErrorBody = z
  .object({
    statusCode: z.int().describe('HTTP status code, repeated in the body.'),
    error: z.string().describe('HTTP status name, e.g. "Not Found".'),
    message: z.string().describe('What went wrong and what to do about it.'),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
