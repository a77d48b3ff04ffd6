import type { ClauseInput, ClauseParser } from './grammar';
import { parseCheck, parseClear, parseFill, parseLogin, parseSearch, parseSelect, parseSet } from './parse-forms';
import {
  parseHistory,
  parseHover,
  parseNavigate,
  parsePress,
  parseScroll,
  parseSubmit,
  parseWait,
} from './parse-navigation';
import { parseAccept, parseActionVerb, parseAddTo, parseClick, parseDismiss, parseExpand } from './parse-pointer';
import { parseAnyQuestion, parseQuestion } from './parse-question';
import { protect, restore, type Slot, splitClauses } from './split';
import type { SubStep } from './substeps';

/** Words that start a new clause; a part without one continues the list of the clause before it. */
const VERB_START =
  /^(?:open|go|goto|visit|navigate|load|browse|head|return|click|double[- ]?click|tap|press|hit|select|choose|pick|check|tick|uncheck|untick|mark|unmark|enable|disable|turn|toggle|switch|type|enter|fill|write|input|put|set|change|update|clear|expand|collapse|unfold|fold|close|hide|reveal|scroll|search|find|look|log|login|logout|sign|wait|hover|submit|accept|agree|add|follow|activate|what|what's|whats|how|which|who|when|where|why|tell|read|give|report|save|send|create|delete|remove|subscribe|register|confirm|continue|proceed|download|upload|buy|order|book|sort|filter|refresh|reload|copy|summarize|translate|compare|print|share|make|pay|call)\b/i;

/** Tried in order: the first parser that accepts a clause decides what it means. */
const PARSERS: ClauseParser[] = [
  parseQuestion,
  parseNavigate,
  parseHistory,
  parseLogin,
  parseSearch,
  parseScroll,
  parseWait,
  parsePress,
  parseSubmit,
  parseHover,
  parseCheck,
  parseSelect,
  parseSet,
  parseClear,
  parseFill,
  parseDismiss,
  parseExpand,
  parseAddTo,
  parseAccept,
  parseClick,
  parseActionVerb,
  parseAnyQuestion,
];

/**
 * Parses an instruction into ordered sub-steps. Clauses nothing understands become `unknown` sub-steps,
 * so the planner can say exactly which part it could not follow.
 */
export function parseInstruction(instruction: string): SubStep[] {
  const slots: Slot[] = [];
  const text = protect(instruction.trim(), slots);
  const steps: SubStep[] = [];
  for (const clause of splitClauses(text, (part) => VERB_START.test(part))) {
    steps.push(...parseClause({ ...clause, slots }));
  }
  return steps;
}

function parseClause(clause: ClauseInput): SubStep[] {
  for (const parser of PARSERS) {
    const steps = parser(clause);
    if (steps?.length) return steps;
  }
  return [{ kind: 'unknown', text: restore(clause.raw, clause.slots) }];
}
