import type { ClauseInput } from './grammar';
import { MAX_CLAUSE_CHARS } from './split';

/** Gerunds of the means in "A by clicking B", as the verb the clause parsers know. */
const GERUNDS: Record<string, string> = {
  clicking: 'click',
  'double-clicking': 'double-click',
  pressing: 'press',
  tapping: 'tap',
  hitting: 'hit',
  selecting: 'select',
  choosing: 'choose',
  picking: 'pick',
  typing: 'type',
  entering: 'enter',
  checking: 'check',
  ticking: 'tick',
  unchecking: 'uncheck',
  using: 'use',
  filling: 'fill',
  writing: 'write',
  scrolling: 'scroll',
  opening: 'open',
  expanding: 'expand',
};
const MEANS = new RegExp(`^.+?\\s+by\\s+(${Object.keys(GERUNDS).join('|')})\\s+(.+)$`, 'i');

/** Clauses whose verb acts on an element, so a trailing "to <verb> it" only says why (a button's own
 * text, "Go to checkout", has no object after its verb and stays). */
const POINTER_VERB =
  /^(?:click|double[- ]?click|tap|press|hit|push|select|choose|pick|check|tick|uncheck|untick|use)\b/i;
const PURPOSE =
  /^(.+?)\s+(?:in order\s+|so as\s+)?to\s+(?:delete|remove|trash|mark|flag|star|open|close|dismiss|confirm|submit|save|send|finish|complete|start|begin|continue|proceed|expand|collapse|show|hide|view|see|reveal|activate|go|get|make|archive|reply|forward|sort|filter|move|return|navigate|select|choose|pick|enable|disable|turn|log|sign)\s+(?:it|them|this|that|these|those|the|a|an|my|your)\b.*$/i;

const USE_TO =
  /^use\s+(.+?)\s+to\s+(enter|type|write|input|put|insert|fill in|search for|search|look up|find|select|choose|pick|set|click|press|tap|open)\s+(.+)$/i;
const TYPING = /^(?:enter|type|write|input|put|insert|fill in)$/i;

/**
 * Puts a clause into the shape the clause parsers read:
 * "close the dialog by clicking the x" → "click the x" (the means is what to do);
 * "click the trash icon to delete it" → "click the trash icon" (the purpose adds nothing to do);
 * "use the textbox to enter 'Ada'" → "enter 'Ada' into the textbox".
 */
export function rephrase(clause: ClauseInput): ClauseInput {
  if (clause.raw.length > MAX_CLAUSE_CHARS || clause.head.length > MAX_CLAUSE_CHARS) return clause;
  let head = clause.head;
  const means = MEANS.exec(head);
  if (means) head = `${GERUNDS[means[1]!.toLowerCase()]} ${means[2]}`;
  const use = USE_TO.exec(head);
  if (use) {
    const [, tool, verb, rest] = use as unknown as [string, string, string, string];
    head = TYPING.test(verb) ? `${verb} ${rest} into ${tool}` : `${verb} ${rest}`;
  }
  if (POINTER_VERB.test(head)) {
    const purpose = PURPOSE.exec(head);
    if (purpose) head = purpose[1]!;
  }
  if (head === clause.head) return clause;
  const raw = clause.raw.startsWith(clause.head) ? head + clause.raw.slice(clause.head.length) : head;
  return { ...clause, head, raw };
}

/** Verbs that, alone before "and", only say the next verb's target must be found first: "find and click X". */
const LEAD_VERBS = /^(?:find|locate|look|search|navigate|scroll|go|hover|then)$/i;

/** Whether a clause is just such a verb. */
export function leadVerb(clause: { raw: string }): boolean {
  return LEAD_VERBS.test(clause.raw.trim());
}
