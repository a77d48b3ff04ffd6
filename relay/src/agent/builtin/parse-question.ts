import { clauseParser, textOf } from './grammar';

const ASKS =
  /^(?:what|what's|whats|how|which|who|when|where|why|is|are|does|do|did|tell me|find out|let me know|give me|report|read(?: out)?|say|show me|list|check (?:what|whether|if|how))\b/i;
const FIND_ATTRIBUTE = /^(?:find|get|look up|check|note)\s+(?:out\s+)?(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:of|for)\s+/i;

/** Any clause asked as a question ("...?") that no other parser took. */
export const parseAnyQuestion = clauseParser((clause) =>
  clause.question ? [{ kind: 'question', question: textOf(clause, clause.raw) }] : undefined,
);

/** "what is the price of the Bolt Drill?", "how much does the kettle cost", "find the rating of Calm Lamp". */
export const parseQuestion = clauseParser((clause) => {
  if (!ASKS.test(clause.head) && !FIND_ATTRIBUTE.test(clause.head)) return undefined;
  return [{ kind: 'question', question: textOf(clause, clause.raw) }];
});
