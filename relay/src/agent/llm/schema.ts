// The decision the model answers with, as zod and as the JSON Schemas sent to endpoints. Everything
// here is generated from the shared action registry; nothing about an action is restated by hand.
import { ACTIONS, Action } from '@tandem/shared';
import { z } from 'zod';
import { MAX_ACTIONS_PER_STEP } from '../planner';

/** One step's decision as the model writes it (snake_case, like the actions). */
export const Decision = z
  .object({
    memory: z
      .string()
      .describe(
        'Notes for your next steps: the plan, progress so far, facts found that you will need later. Carried to the next step.',
      ),
    next_goal: z.string().describe("What this step's actions should achieve, in one short sentence."),
    actions: z
      .array(Action)
      .min(1)
      .max(MAX_ACTIONS_PER_STEP)
      .describe(`1 to ${MAX_ACTIONS_PER_STEP} actions, run in order. done and ask_user stand alone.`),
  })
  .describe('Your decision for this step.');

/** The name of the one function offered in tools mode. */
export const DECISION_TOOL = 'decide';

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Replaces `{$ref: '#/$defs/X'}` with the definition itself (each is used once), for servers without $ref. */
function inlineRefs(node: unknown, defs: JsonObject): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, defs));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const { $ref: _ref, ...rest } = node;
    return { ...(inlineRefs(defs[ref.slice('#/$defs/'.length)], defs) as JsonObject), ...rest };
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$defs') continue;
    // zod writes int's safe-integer bound on every index; it is noise for a model.
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    out[key === 'oneOf' ? 'anyOf' : key] = inlineRefs(value, defs);
  }
  return out;
}

/** A zod schema as a self-contained JSON Schema (input side: defaulted fields are optional). */
export function plainJsonSchema(schema: z.ZodType): JsonObject {
  const generated = z.toJSONSchema(schema, { io: 'input' }) as JsonObject;
  const defs = isObject(generated.$defs) ? generated.$defs : {};
  return inlineRefs(generated, defs) as JsonObject;
}

/** Keywords OpenAI's strict mode rejects; zod still checks them when the reply is parsed. */
const STRICT_DROPPED = new Set(['default', 'minLength', 'maxLength', 'format', 'pattern']);

/** Adds null to what a schema accepts, so an optional property can be listed as required. */
function nullable(schema: JsonObject): JsonObject {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * The strict-mode subset: every object closed (`additionalProperties: false`) with every property
 * required, optional ones made nullable (the parser drops nulls, so zod's defaults apply), `const`
 * written as a one-value enum and unsupported keywords dropped.
 */
export function toStrictJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toStrictJsonSchema);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (STRICT_DROPPED.has(key)) continue;
    if (key === 'const') out.enum = [value];
    else out[key] = toStrictJsonSchema(value);
  }
  if (out.type === 'object' && isObject(out.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const properties: JsonObject = {};
    for (const [name, property] of Object.entries(out.properties)) {
      properties[name] = required.has(name) || !isObject(property) ? property : nullable(property);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** The decision schema for tools mode and the prompt: plain JSON Schema with descriptions and defaults. */
export const DECISION_JSON_SCHEMA = plainJsonSchema(Decision);
/** The decision schema for `response_format: json_schema` with `strict: true`. */
export const STRICT_DECISION_JSON_SCHEMA = toStrictJsonSchema(DECISION_JSON_SCHEMA) as JsonObject;

/** A schema without its descriptions: the prompt lists the actions in words already. */
export function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'description')
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

/** One field of an action, read off its generated JSON Schema (for the prompt and for coercion). */
export interface ActionField {
  name: string;
  schema: JsonObject;
  required: boolean;
}

/** Each action's fields except the `action` discriminator, keyed by action name. */
export const ACTION_FIELDS: ReadonlyMap<string, ActionField[]> = new Map(
  ACTIONS.map((def) => {
    const schema = plainJsonSchema(def.schema);
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties = isObject(schema.properties) ? schema.properties : {};
    const fields = Object.entries(properties)
      .filter(([name]) => name !== 'action')
      .map(([name, field]) => ({ name, schema: field as JsonObject, required: required.has(name) }));
    return [def.name, fields];
  }),
);
