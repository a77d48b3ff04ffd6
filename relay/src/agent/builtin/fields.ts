import type { SnapshotElement } from '@tandem/shared';
import {
  isCheckable,
  isDateField,
  isDropdownToggle,
  isNativeSelect,
  isPassword,
  isSearchField,
  isSlider,
  isTypeable,
} from './elements';
import { type Match, rankElements } from './match';
import type { ResolveContext } from './resolution';
import { words } from './text';

/** An element that can hold a value the user names: text fields, selects, boxes, custom dropdowns. */
export const isFillable = (e: SnapshotElement) =>
  isTypeable(e) || isNativeSelect(e) || isCheckable(e) || isDropdownToggle(e) || isSlider(e);

const USER_WORDS = new Set(['user', 'username', 'login', 'account', 'id', 'userid']);

/** Fields known by what they are rather than their label ("the username" is often an e-mail field). */
function semanticScore(field: string, e: SnapshotElement): number {
  const w = words(field);
  const type = e.attributes.type ?? '';
  const name = `${e.attributes.name ?? ''} ${e.attributes.id ?? ''}`.toLowerCase();
  if (w.some((x) => /^(?:password|pass|pw|pwd|passcode)$/.test(x)) && isPassword(e)) return 0.9;
  if (w.every((x) => USER_WORDS.has(x)) && isTypeable(e) && !isPassword(e)) {
    if (/user|login/.test(name)) return 0.85;
    if (type === 'email' || /mail/.test(name)) return 0.75;
  }
  if (w.some((x) => /^e?mail$|^email$/.test(x)) && type === 'email') return 0.85;
  if (w.some((x) => /^(?:phone|telephone|mobile|tel)$/.test(x)) && type === 'tel') return 0.85;
  if (w.some((x) => /^(?:search|query)$/.test(x)) && isSearchField(e)) return 0.85;
  // A number field with step buttons is "the spinner" by what it is (role spinbutton, type number).
  if (
    w.some((x) => /^(?:spinner|spinbox|spin|stepper|counter)$/.test(x)) &&
    (e.role === 'spinbutton' || type === 'number')
  )
    return 0.85;
  // A field known by its input type: "the date" is the date input even when nothing labels it.
  const typeWord: Record<string, RegExp> = {
    date: /^(?:date|day|birthday|dob|birth)$/,
    time: /^(?:time|hour)$/,
    'datetime-local': /^(?:date|time|datetime)$/,
    month: /^month$/,
    week: /^week$/,
    number: /^(?:number|amount|quantity|qty|count|age)$/,
    url: /^(?:url|website|link|address)$/,
    color: /^(?:colou?r)$/,
  };
  const pattern = typeWord[type.toLowerCase()];
  if (pattern && w.some((x) => pattern.test(x)) && (isDateField(e) || e.tag === 'input')) return 0.8;
  return 0;
}

/** The field the user's words name, best first; label matches and what-it-is matches both count. */
export function findField(field: string, ctx: ResolveContext): Match | undefined {
  const accept = (e: SnapshotElement) => isFillable(e) && !ctx.used.has(e.index);
  const ranked = rankElements(
    ctx.snapshot,
    { text: field, kind: 'field' },
    { accept, avoid: ctx.avoid, anchor: ctx.anchor },
  );
  for (const e of ctx.snapshot.elements) {
    const score = accept(e) ? semanticScore(field, e) : 0;
    if (score > 0 && !ranked.some((m) => m.element === e && m.score >= score)) ranked.push({ element: e, score });
  }
  ranked.sort((a, b) => b.score - a.score);
  const best = ranked[0];
  return best && best.score >= 0.5 ? best : undefined;
}

/** Every fillable field the words name (all the "password" fields), in page order. */
export function fieldsNamed(field: string, ctx: ResolveContext): SnapshotElement[] {
  const accept = (e: SnapshotElement) => isFillable(e) && !ctx.used.has(e.index);
  const ranked = rankElements(ctx.snapshot, { text: field, kind: 'field' }, { accept, avoid: ctx.avoid });
  const named = new Set(ranked.filter((m) => m.score >= 0.6).map((m) => m.element));
  for (const e of ctx.snapshot.elements) if (accept(e) && semanticScore(field, e) > 0) named.add(e);
  return ctx.snapshot.elements.filter((e) => named.has(e));
}

/** "username admin" → the split whose leading words name a field best. */
export function splitFieldValue(raw: string, ctx: ResolveContext): { match: Match; value: string } | undefined {
  const parts = raw.split(/\s+/);
  let best: { match: Match; value: string } | undefined;
  for (let k = 1; k < parts.length; k++) {
    const match = findField(parts.slice(0, k).join(' '), ctx);
    if (match && (!best || match.score > best.match.score + 0.01)) best = { match, value: parts.slice(k).join(' ') };
  }
  return best;
}

/**
 * The field to type into when none was named: the focused one, else the only (or first) visible empty
 * one; fields that cannot hold the value (words into a date or number input) are passed over.
 */
export function defaultField(ctx: ResolveContext, value?: string): SnapshotElement | undefined {
  const fields = ctx.snapshot.elements.filter(
    (e) => isTypeable(e) && !ctx.used.has(e.index) && (value === undefined || canHold(e, value)),
  );
  const focused = fields.find((e) => e.states.focused);
  if (focused) return focused;
  const visible = fields.filter((e) => e.in_viewport);
  return visible.find((e) => !e.attributes.value && !e.states.filled) ?? visible[0];
}

/** Date, time and number inputs take digits: a value without any cannot go there. */
function canHold(e: SnapshotElement, value: string): boolean {
  const type = (e.attributes.type ?? '').toLowerCase();
  if (!isDateField(e) && type !== 'number') return true;
  return /\d/.test(value);
}
