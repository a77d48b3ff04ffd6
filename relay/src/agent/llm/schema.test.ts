import { ACTION_NAMES, ACTIONS } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { parseDecision } from './parse';
import { EXAMPLE_DECISION } from './prompts';
import { DECISION_JSON_SCHEMA, Decision, STRICT_DECISION_JSON_SCHEMA } from './schema';

type Node = { [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every object schema in a tree. */
function objectsIn(node: unknown, out: Node[] = []): Node[] {
  if (Array.isArray(node)) for (const item of node) objectsIn(item, out);
  else if (isNode(node)) {
    if (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))) out.push(node);
    for (const value of Object.values(node)) objectsIn(value, out);
  }
  return out;
}
const keysIn = (node: unknown): string[] =>
  Array.isArray(node)
    ? node.flatMap(keysIn)
    : isNode(node)
      ? Object.entries(node).flatMap(([k, v]) => [k, ...keysIn(v)])
      : [];

const actionVariants = (schema: Node) => {
  const actions = (schema.properties as Node).actions as Node;
  return (actions.items as Node).anyOf as Node[];
};

describe('decision JSON Schema', () => {
  it('is generated from the action registry: one variant per action, with its description', () => {
    const variants = actionVariants(DECISION_JSON_SCHEMA);
    expect(variants.map((v) => ((v.properties as Node).action as Node).const)).toEqual(ACTION_NAMES);
    expect(variants.map((v) => v.description)).toEqual(ACTIONS.map((def) => def.description));
    expect(JSON.stringify(DECISION_JSON_SCHEMA)).not.toContain('$ref');
    expect(DECISION_JSON_SCHEMA.required).toEqual(['memory', 'next_goal', 'actions']);
  });

  it('strict variant: every object closed with every property required', () => {
    const objects = objectsIn(STRICT_DECISION_JSON_SCHEMA);
    expect(objects.length).toBe(ACTION_NAMES.length + 1);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect(object.required).toEqual(Object.keys(object.properties as Node));
    }
  });

  it('strict variant: optional fields become nullable; const, default, oneOf and $ref are gone', () => {
    const keys = new Set(keysIn(STRICT_DECISION_JSON_SCHEMA));
    for (const banned of ['const', 'default', 'oneOf', '$ref', '$defs', '$schema', 'minLength', 'maxLength']) {
      expect(keys.has(banned), banned).toBe(false);
    }
    const type = actionVariants(STRICT_DECISION_JSON_SCHEMA).find(
      (v) => ((v.properties as Node).action as Node).enum?.toString() === 'type',
    )!;
    const props = type.properties as Node;
    expect((props.clear as Node).type).toEqual(['boolean', 'null']);
    expect((props.text as Node).type).toBe('string');
    const pressKey = actionVariants(STRICT_DECISION_JSON_SCHEMA).find(
      (v) => ((v.properties as Node).action as Node).enum?.toString() === 'press_key',
    )!;
    expect(((pressKey.properties as Node).key as Node).anyOf).toHaveLength(2);
  });

  it('a strict-mode reply (nulls for unused fields) parses to the action defaults', () => {
    const reply = {
      memory: 'm',
      next_goal: 'g',
      actions: [{ action: 'press_key', key: 'Enter', modifiers: null, index: null }],
    };
    const result = parseDecision(reply);
    expect(result.ok && result.decision.actions).toEqual([{ action: 'press_key', key: 'Enter', modifiers: [] }]);
  });

  it('the prompt example is a valid decision', () => {
    expect(Decision.safeParse(EXAMPLE_DECISION).success).toBe(true);
  });
});
