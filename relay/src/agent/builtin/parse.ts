import { type ClauseInput, type ClauseParser, textOf } from './grammar';
import {
  parseCheck,
  parseClear,
  parseFill,
  parseFind,
  parseLogin,
  parseSearch,
  parseSelect,
  parseSet,
  parseSlide,
} from './parse-forms';
import { parseMessage } from './parse-messages';
import {
  parseHistory,
  parseHover,
  parseNavigate,
  parsePress,
  parseScroll,
  parseSubmit,
  parseWait,
} from './parse-navigation';
import {
  parseAccept,
  parseActionVerb,
  parseAddTo,
  parseClick,
  parseContext,
  parseDismiss,
  parseExpand,
  parseFocus,
} from './parse-pointer';
import { parseAnyQuestion, parseQuestion } from './parse-question';
import { leadVerb, rephrase } from './rephrase';
import { MAX_CLAUSE_CHARS, protect, restore, type Slot, splitClauses } from './split';
import type { SubStep } from './substeps';

/** The most clauses one instruction may hold: a longer list is no explicit instruction, and reading stays cheap. */
export const MAX_CLAUSES = 100;

/** Words that start a new clause; a part without one continues the list of the clause before it. */
const VERB_START =
  /^(?:open|go|goto|visit|navigate|load|browse|head|return|click|double[- ]?click|tap|press|hit|select|choose|pick|check|tick|uncheck|untick|mark|unmark|enable|disable|turn|toggle|switch|type|enter|fill|write|input|put|set|change|update|clear|expand|collapse|unfold|fold|close|hide|reveal|scroll|search|find|locate|look|log|login|logout|sign|wait|hover|submit|accept|agree|add|follow|activate|focus|use|move|drag|slide|what|what's|whats|how|which|who|when|where|why|tell|read|give|report|save|send|forward|reply|respond|create|delete|remove|subscribe|register|confirm|continue|proceed|download|upload|buy|order|book|sort|filter|refresh|reload|copy|summarize|translate|compare|print|share|make|pay|call)\b/i;

/** Tried in order: the first parser that accepts a clause decides what it means. */
const PARSERS: ClauseParser[] = [
  parseQuestion,
  parseNavigate,
  parseHistory,
  parseLogin,
  parseContext,
  parseFind,
  parseSearch,
  parseScroll,
  parseWait,
  parsePress,
  parseSubmit,
  parseHover,
  parseFocus,
  parseSlide,
  parseCheck,
  parseSelect,
  parseSet,
  parseClear,
  parseFill,
  parseMessage,
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
 * so the planner can say exactly which part it could not follow. Linear in the instruction's length:
 * the splitter scans it once, and each clause parser reads at most MAX_CLAUSE_CHARS.
 */
export function parseInstruction(instruction: string): SubStep[] {
  const slots: Slot[] = [];
  const text = protect(instruction, slots);
  const clauses = splitClauses(text, (part) => VERB_START.test(part.slice(0, 40)));
  if (clauses.length > MAX_CLAUSES) {
    const why = `it has ${clauses.length} steps, and I follow at most ${MAX_CLAUSES} in one instruction: send it in parts`;
    return [{ kind: 'unknown', text: instruction, why }];
  }
  const steps: SubStep[] = [];
  clauses.forEach((clause, i) => {
    // "find and click X": the lone verb only says that X must be found first, which clicking does.
    if (i < clauses.length - 1 && clause.items.length === 0 && leadVerb(clause)) return;
    steps.push(...parseClause({ ...clause, slots }));
  });
  // "enter X" sends what it typed only when nothing follows it (a following "press Submit" does that).
  return steps.filter((step, i) => !(step.kind === 'submit' && step.implicit && i < steps.length - 1));
}

function parseClause(input: ClauseInput): SubStep[] {
  if (input.raw.length > MAX_CLAUSE_CHARS) return [{ kind: 'unknown', text: restore(input.raw, input.slots) }];
  const clause = rephrase(input);
  for (const parser of PARSERS) {
    const steps = parser(clause);
    if (steps?.length) return steps;
  }
  return [{ kind: 'unknown', text: textOf(input, input.raw) }];
}
