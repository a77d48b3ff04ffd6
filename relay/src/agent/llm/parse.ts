// Tolerant reading of a model's decision: finds the JSON in whatever the model wrote, accepts the
// shapes models commonly drift into, coerces obvious type slips, then validates with the zod Action.
import { ACTION_NAMES, Action } from '@tandem/shared';
import type { z } from 'zod';
import { quote } from '../../quote';
import { applyStepRules } from '../step-rules';
import { ACTION_FIELDS, DECISION_TOOL } from './schema';

export { applyStepRules } from '../step-rules';

/** A decision that passed validation, before it becomes a `PlanDecision`. */
export interface ParsedDecision {
  memory?: string | undefined;
  nextGoal?: string | undefined;
  actions: Action[];
}

export type ParseResult =
  | {
      ok: true;
      decision: ParsedDecision /** What was adjusted (dropped or cut actions), for the log. */;
      notes: string[];
    }
  | { ok: false; errors: string[] };

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ACTION_SET = new Set<string>(ACTION_NAMES);
/** Keys under which models nest an action's fields or a whole decision. */
const NESTED_ARGS = ['params', 'parameters', 'args', 'arguments', 'input'];

/** Parses a reply's text: markdown fences, prose around the JSON and trailing commas are tolerated. */
export function parseDecisionText(text: string): ParseResult {
  const extracted = extractJson(text);
  if ('error' in extracted) return { ok: false, errors: [extracted.error] };
  return parseDecision(extracted.value);
}

/**
 * Reads tool calls: the decision tool's arguments, or, from a model that called actions as if each
 * were a tool, those calls as the actions.
 */
export function parseToolCalls(calls: { name: string; arguments: string }[]): ParseResult {
  const decision = calls.find((call) => call.name === DECISION_TOOL);
  if (decision) return parseDecisionText(decision.arguments);
  return parseDecision({
    actions: calls.map((call) => {
      const args = extractJson(call.arguments);
      return { ...('value' in args && isObject(args.value) ? args.value : {}), action: call.name };
    }),
  });
}

/** Validates an already-parsed value: a decision, a bare actions array or a single action. */
export function parseDecision(value: unknown): ParseResult {
  const shaped = toDecisionShape(value);
  if ('error' in shaped) return { ok: false, errors: [shaped.error] };
  const errors: string[] = [];
  const actions: Action[] = [];
  shaped.actions.forEach((raw, i) => {
    const result = parseAction(raw, `actions[${i}]`);
    if ('errors' in result) errors.push(...result.errors);
    else actions.push(result.action);
  });
  if (shaped.actions.length === 0) {
    errors.push('actions is empty: give at least one action (done with the answer when the task is finished).');
  }
  if (errors.length > 0) return { ok: false, errors };
  const { kept, notes } = applyStepRules(actions);
  return { ok: true, decision: { memory: shaped.memory, nextGoal: shaped.nextGoal, actions: kept }, notes };
}

interface DecisionShape {
  memory?: string | undefined;
  nextGoal?: string | undefined;
  actions: unknown[];
}

function toDecisionShape(value: unknown, depth = 0): DecisionShape | { error: string } {
  if (Array.isArray(value)) return { actions: value };
  if (!isObject(value)) {
    return { error: `expected a JSON object {"memory", "next_goal", "actions"}, got ${describe(value)}.` };
  }
  if ('actions' in value) {
    const actions = value.actions;
    return {
      memory: text(value.memory),
      nextGoal: text(value.next_goal ?? value.nextGoal ?? value.goal),
      actions: Array.isArray(actions) ? actions : actions === undefined || actions === null ? [] : [actions],
    };
  }
  if (looksLikeAction(value)) return { actions: [value] };
  // A decision wrapped like a function call or under one key: {"name": "decide", "arguments": {...}}.
  if (depth < 2) {
    for (const key of [...NESTED_ARGS, 'decision']) {
      const inner = value[key];
      const parsed = typeof inner === 'string' ? extractJson(inner) : { value: inner };
      if ('value' in parsed && (isObject(parsed.value) || Array.isArray(parsed.value))) {
        return toDecisionShape(parsed.value, depth + 1);
      }
    }
  }
  return { error: `expected a JSON object with "memory", "next_goal" and "actions"; got keys ${keys(value)}.` };
}

function looksLikeAction(value: JsonObject): boolean {
  if (typeof value.action === 'string') return true;
  if (typeof value.name === 'string') return ACTION_SET.has(actionName(value.name));
  const entries = Object.keys(value);
  return entries.length === 1 && ACTION_SET.has(actionName(entries[0]!));
}

/** `Click`, `go-back` and `Go Back` all mean the registry's `go_back`-style names. */
const actionName = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

function parseAction(raw: unknown, where: string): { action: Action } | { errors: string[] } {
  if (!isObject(raw)) return { errors: [`${where}: expected an action object, got ${describe(raw)}.`] };
  let name: string | undefined;
  let fields: JsonObject;
  if (typeof raw.action === 'string' || typeof raw.name === 'string') {
    const { action, name: alias, ...rest } = raw;
    name = actionName(String(action ?? alias));
    fields = rest;
    // {"action": "click", "params": {"index": 3}}
    for (const key of NESTED_ARGS) {
      if (isObject(rest[key])) {
        const { [key]: nested, ...others } = rest;
        fields = { ...(nested as JsonObject), ...others };
        break;
      }
    }
  } else {
    // {"click": {"index": 3}}: one key, the action's name.
    const entries = Object.entries(raw);
    const [key, value] = entries[0] ?? [];
    if (entries.length === 1 && key !== undefined && (isObject(value) || value === null)) {
      name = actionName(key);
      fields = value ?? {};
    } else {
      return { errors: [`${where}: missing "action" (one of ${ACTION_NAMES.join(', ')}); got keys ${keys(raw)}.`] };
    }
  }
  if (!ACTION_SET.has(name)) {
    return { errors: [`${where}: unknown action ${quote(name, 40)}; use one of ${ACTION_NAMES.join(', ')}.`] };
  }
  const result = Action.safeParse({ ...coerceFields(name, fields), action: name });
  if (result.success) return { action: result.data };
  return { errors: result.error.issues.map((issue) => formatIssue(`${where} (${name})`, issue)) };
}

/** Drops nulls (strict mode's "not given") and fixes obvious type slips: `"12"`, `"[12]"`, `"true"`. */
function coerceFields(name: string, fields: JsonObject): JsonObject {
  const types = new Map((ACTION_FIELDS.get(name) ?? []).map((f) => [f.name, f.schema.type]));
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === null) continue;
    const type = types.get(key);
    if (typeof value === 'string' && (type === 'integer' || type === 'number')) {
      const trimmed = value.trim().replace(/^\[(.*)\]$/, '$1');
      const number = Number(trimmed);
      out[key] = trimmed !== '' && Number.isFinite(number) ? number : value;
    } else if (typeof value === 'string' && type === 'boolean' && /^(true|false)$/i.test(value.trim())) {
      out[key] = value.trim().toLowerCase() === 'true';
    } else {
      out[key] = value;
    }
  }
  return out;
}

function formatIssue(where: string, issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return `${where}${path}: ${issue.message}`;
}

const text = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : typeof value === 'string' ? value : JSON.stringify(value);

/** The object's keys as a message lists them: a few, each cut short (a model can write anything). */
const keys = (value: JsonObject) => {
  const names = Object.keys(value);
  if (!names.length) return 'none';
  const shown = names.slice(0, 8).map((k) => quote(k, 40));
  return names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : shown.join(', ');
};

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 60))}`;
  return `a ${typeof value}`;
}

/** Finds the JSON value in a reply: fenced block, the whole text, or the first balanced {…} or […] that parses. */
export function extractJson(reply: string): { value: unknown } | { error: string } {
  const trimmed = reply.trim();
  if (!trimmed) return { error: 'the reply is empty: answer with the JSON decision.' };
  const candidates = fencedBlocks(trimmed);
  candidates.push(trimmed);
  // Each top-level {…} or […] in turn. One that never closes means the reply was cut off: the objects
  // inside it are not salvaged, or a truncated decision would lose its tail (and memory) unnoticed.
  let from = openingBracket(trimmed, 0);
  for (let tries = 0; from !== -1 && tries < 20; tries++) {
    const span = balancedSpan(trimmed, from);
    if (span === undefined) break;
    candidates.push(span);
    from = openingBracket(trimmed, from + span.length);
  }
  let fallback: { value: unknown } | undefined;
  for (const candidate of candidates) {
    const value = parseLenient(candidate);
    if (value === undefined) continue;
    if (isDecisionLike(value)) return { value };
    fallback ??= { value };
  }
  return fallback ?? { error: `the reply is not valid JSON: ${JSON.stringify(trimmed.slice(0, 200))}` };
}

/**
 * The contents of the reply's ``` fences, in order: after the opening fence its language tag and
 * whitespace are skipped; an opening fence with no closing one ends the search. A scan, not a regular
 * expression: `/```[a-z]*\s*([\s\S]*?)```/` backtracks into quadratic time on a long unclosed fence.
 */
function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  for (let from = 0; ; ) {
    const open = text.indexOf('```', from);
    if (open === -1) return blocks;
    let start = open + 3;
    while (start < text.length && /[a-zA-Z]/.test(text[start]!)) start++;
    while (start < text.length && /\s/.test(text[start]!)) start++;
    const close = text.indexOf('```', start);
    if (close === -1) return blocks;
    blocks.push(text.slice(start, close));
    from = close + 3;
  }
}

/** The index of the first `{` or `[` at or after `from`, or -1. */
function openingBracket(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (text[i] === '{' || text[i] === '[') return i;
  return -1;
}

const isDecisionLike = (value: unknown) =>
  Array.isArray(value) ? value.some(isObject) : isObject(value) && ('actions' in value || looksLikeAction(value));

function parseLenient(candidate: string): unknown {
  for (const attempt of [candidate, withoutTrailingCommas(candidate)]) {
    try {
      return JSON.parse(attempt);
    } catch {
      // try the next repair
    }
  }
  return undefined;
}

/** The text from `start` to its matching bracket, strings respected; undefined when it never closes. */
function balancedSpan(source: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < source.length; i++) {
    const ch = source[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return source.slice(start, i + 1);
    }
  }
  return undefined;
}

/** Removes commas before `}` or `]` outside strings. */
function withoutTrailingCommas(source: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += source[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      let next = i + 1;
      while (next < source.length && /\s/.test(source[next]!)) next++;
      if (source[next] === '}' || source[next] === ']') continue;
    }
    out += ch;
  }
  return out;
}
