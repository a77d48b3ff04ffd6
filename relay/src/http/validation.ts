import type { ValidationIssue } from '@tandem/shared';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { ValidationFailed } from '../errors';
import { clip } from '../quote';

type Where = 'body' | 'path' | 'query';

const TYPE_WORDS: Record<string, [type: string, msg: string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
};

// Pydantic tells a value of the wrong kind (`float_type`) from a string it tried and failed to read as
// the right kind (`float_parsing`); clients written against FastAPI branch on these names.
const PARSING_WORDS: Record<string, [type: string, msg: string]> = {
  number: ['float_parsing', 'Input should be a valid number, unable to parse string as a number'],
  int: ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  boolean: ['bool_parsing', 'Input should be a valid boolean, unable to interpret input'],
};

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Longest string input a 422 repeats back: a 20,000-character cmd is answered with its start, not itself. */
const ECHO_CHARS = 100;
/** The offending value as `input` repeats it: pydantic's, with a long string cut. */
function echo(value: unknown): unknown {
  return typeof value === 'string' ? clip(value, ECHO_CHARS) : value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The schema of the field at `path`, looking through optional/default wrappers, objects and lists. */
function schemaAt(root: z.ZodType | undefined, path: readonly PropertyKey[]): z.ZodType | undefined {
  let schema = root;
  const unwrap = () => {
    while (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodNullable) {
      schema = schema.unwrap() as z.ZodType;
    }
  };
  for (const key of path) {
    unwrap();
    if (schema instanceof z.ZodObject) schema = schema.shape[String(key)] as z.ZodType | undefined;
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodRecord) schema = schema.valueType as z.ZodType;
    else return undefined;
  }
  unwrap();
  return schema;
}

/** zod names an integer field's expected type "number" when the input is not a number at all. */
function expectedType(issue: z.core.$ZodIssueInvalidType, root: z.ZodType | undefined): string {
  const field = issue.expected === 'number' ? schemaAt(root, issue.path) : undefined;
  return field instanceof z.ZodNumber && field.isInt ? 'int' : issue.expected;
}

/** Turns zod issues into the FastAPI/pydantic 422 `detail` items. */
export function toValidationIssues(
  where: Where,
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  schema?: z.ZodType,
): ValidationIssue[] {
  const details = issues.map((issue): ValidationIssue => {
    const loc = [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    const value = valueAt(input, issue.path);
    switch (issue.code) {
      case 'invalid_type': {
        if (value === undefined) return { loc, msg: 'Field required', type: 'missing' };
        if (issue.expected === 'int' && typeof value === 'number') {
          return {
            loc,
            msg: 'Input should be a valid integer, got a number with a fractional part',
            type: 'int_from_float',
            input: echo(value),
          };
        }
        const expected = expectedType(issue, schema);
        const parsing = typeof value === 'string' || (expected === 'boolean' && typeof value === 'number');
        const [type, msg] = (parsing ? PARSING_WORDS[expected] : undefined) ??
          TYPE_WORDS[expected] ?? [`${expected}_type`, `Input should be a valid ${expected}`];
        return { loc, msg, type, input: echo(value) };
      }
      case 'invalid_value': {
        const expected = quoteList(issue.values);
        return { loc, msg: `Input should be ${expected}`, type: 'enum', input: echo(value), ctx: { expected } };
      }
      case 'too_small': {
        const bound = Number(issue.minimum);
        const length = lengthIssue(loc, value, issue.origin, bound, 'min');
        if (length) return length;
        return issue.inclusive
          ? {
              loc,
              msg: `Input should be greater than or equal to ${bound}`,
              type: 'greater_than_equal',
              input: echo(value),
              ctx: { ge: bound },
            }
          : {
              loc,
              msg: `Input should be greater than ${bound}`,
              type: 'greater_than',
              input: echo(value),
              ctx: { gt: bound },
            };
      }
      case 'too_big': {
        const bound = Number(issue.maximum);
        const length = lengthIssue(loc, value, issue.origin, bound, 'max');
        if (length) return length;
        return issue.inclusive
          ? {
              loc,
              msg: `Input should be less than or equal to ${bound}`,
              type: 'less_than_equal',
              input: echo(value),
              ctx: { le: bound },
            }
          : {
              loc,
              msg: `Input should be less than ${bound}`,
              type: 'less_than',
              input: echo(value),
              ctx: { lt: bound },
            };
      }
      default:
        return { loc, msg: issue.message, type: 'value_error', input: echo(value) };
    }
  });
  return details.map((detail, i) => withoutSecret(schema, issues[i]?.path ?? [], detail));
}

/**
 * Whether the value at `path` is a secret or inside one: a schema on the way marked `writeOnly` (passwords,
 * secret values, `optional_params.secrets`). Such a 422 says where and why, never what.
 */
function writeOnlyAt(root: z.ZodType | undefined, path: readonly PropertyKey[]): boolean {
  let schema = root;
  const marked = () => (schema ? z.globalRegistry.get(schema)?.writeOnly === true : false);
  const unwrap = () => {
    let found = marked();
    while (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodNullable) {
      schema = schema.unwrap() as z.ZodType;
      found ||= marked();
    }
    return found;
  };
  for (const key of path) {
    if (unwrap()) return true;
    if (schema instanceof z.ZodObject) schema = schema.shape[String(key)] as z.ZodType | undefined;
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else if (schema instanceof z.ZodRecord) schema = schema.valueType as z.ZodType;
    else return false;
  }
  return unwrap();
}

function withoutSecret(
  schema: z.ZodType | undefined,
  path: readonly PropertyKey[],
  detail: ValidationIssue,
): ValidationIssue {
  if (!writeOnlyAt(schema, path)) return detail;
  const { input: _secret, ...rest } = detail;
  return rest;
}

/** Pydantic's issue for a string outside its length bound; undefined for other kinds of value. */
function lengthIssue(
  loc: ValidationIssue['loc'],
  value: unknown,
  origin: string,
  bound: number,
  side: 'min' | 'max',
): ValidationIssue | undefined {
  if (origin !== 'string') return undefined;
  return {
    loc,
    msg: `String should have at ${side === 'min' ? 'least' : 'most'} ${plural(bound, 'character')}`,
    type: side === 'min' ? 'string_too_short' : 'string_too_long',
    input: echo(value),
    ctx: { [`${side}_length`]: bound },
  };
}

/** Whether the request carried any body bytes (the JSON parser turns an empty one into `{}`). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Parses `req.body`, path params and the query string with the endpoint's schemas; 422 on failure. The
 * parsed data is what handlers read (`body()`, `params()`, `query()`).
 */
export function validate(schemas: { body?: z.ZodObject; params?: z.ZodObject; query?: z.ZodObject }): RequestHandler {
  return (req, res, next) => {
    const issues: ValidationIssue[] = [];
    if (schemas.params) {
      const parsed = schemas.params.safeParse(req.params);
      if (parsed.success) res.locals.params = parsed.data;
      else issues.push(...toValidationIssues('path', parsed.error.issues, req.params, schemas.params));
    }
    if (schemas.query) {
      const parsed = schemas.query.safeParse(req.query);
      if (parsed.success) res.locals.query = parsed.data;
      else issues.push(...toValidationIssues('query', parsed.error.issues, req.query, schemas.query));
    }
    if (schemas.body) {
      const body: unknown = req.body;
      if (body === undefined || !hasBody(req)) {
        issues.push({ loc: ['body'], msg: 'Field required', type: 'missing' });
      } else {
        const parsed = schemas.body.safeParse(body);
        if (parsed.success) res.locals.body = parsed.data;
        else issues.push(...toValidationIssues('body', parsed.error.issues, body, schemas.body));
      }
    }
    if (issues.length) throw new ValidationFailed(issues);
    next();
  };
}
