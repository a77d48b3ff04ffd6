import { clauseParser, listTargets, parseTarget, stripArticle, textOf } from './grammar';
import type { SubStep } from './substeps';

/** "close the dialog", "dismiss the cookie banner". */
export const parseDismiss = clauseParser(({ head }) =>
  /^(?:close|dismiss|exit|hide)\s+(?:the\s+|this\s+)?(?:[\w-]+\s+)?(?:dialog|modal|pop-?up|overlay|banner|notice|window|message|alert)(?:\s+(?:box|window))?$/i.test(
    head,
  )
    ? [{ kind: 'dismiss' }]
    : undefined,
);

const EXPAND = /^(expand|unfold|open up|reveal|show|open|collapse|fold|close|hide)\s+(.+)$/i;

/** "expand the Warranty section", "collapse Care instructions", "open the shipping question". */
export const parseExpand = clauseParser((clause) => {
  const match = EXPAND.exec(clause.head);
  if (!match) return undefined;
  const verb = match[1]!.toLowerCase();
  const target = parseTarget(clause, match[2]!);
  const explicit = /^(?:expand|unfold|collapse|fold)$/.test(verb);
  if (!explicit && target.kind !== 'section') return undefined;
  const expanded = !/^(?:collapse|fold|close|hide)$/.test(verb);
  return listTargets(clause, match[2]!).map((t): SubStep => ({ kind: 'expand', target: t, expanded }));
});

/** "add the Bolt Drill to the cart" → a click on the control that says so. */
export const parseAddTo = clauseParser((clause) => {
  const match = /^add\s+(.+?)\s+to\s+(?:the\s+|my\s+)?(cart|basket|bag|wishlist|wish list|favou?rites|list)$/i.exec(
    clause.raw,
  );
  if (!match) return undefined;
  return [
    {
      kind: 'click',
      target: { text: `Add ${textOf(clause, stripArticle(match[1]!))} to ${match[2]}`, kind: 'button' },
    },
  ];
});

/** "accept the terms", "agree to the conditions": tick the box, or press the button that says so. */
export const parseAccept = clauseParser((clause) => {
  const match = /^(accept|agree to|agree with|consent to|dismiss|reject|decline)\s+(.+)$/i.exec(clause.head);
  if (!match) return undefined;
  const text = `${match[1]} ${parseTarget(clause, match[2]!).text}`;
  return [{ kind: 'click', target: { text }, ensureChecked: /^(?:accept|agree|consent)/i.test(match[1]!) }];
});

const PATH_SEPARATOR = /\s+(?:>|→|»|->|=>)\s+/;

const CLICK =
  /^(?:(double[- ]?click|double[- ]?tap)|click|tap|press|hit|push|activate|follow|open|go to|goto|switch to|navigate to|visit|view|show|display|use)\s+(?:on\s+|at\s+)?(.+)$/i;

/** "click Sign in", "tap on the 'Reviews' tab", "open the first result", "click A and then B". */
export const parseClick = clauseParser((clause) => {
  const match = CLICK.exec(clause.head);
  if (!match) return undefined;
  const double = match[1] !== undefined;
  // "File > Export > PDF": each step of a menu path, in order, in the menu the step before opened.
  const parts = [match[2]!, ...clause.items].flatMap((part) => part.split(PATH_SEPARATOR));
  return parts
    .filter((part) => part.trim() !== '')
    .map((part): SubStep => ({ kind: 'click', target: parseTarget(clause, part), ...(double ? { double } : {}) }));
});

/** Verbs that usually name their own button: "save the settings", "send the form", "create an account". */
const ACTION_VERB =
  /^(?:save|send|create|delete|remove|subscribe|unsubscribe|register|confirm|continue|proceed|apply|download|share|checkout|check out|buy|order|book|reply|retry|refresh|reset|cancel|next|previous)\b/i;

export const parseActionVerb = clauseParser((clause) =>
  ACTION_VERB.test(clause.head)
    ? [{ kind: 'click', target: { text: textOf(clause, clause.raw) }, strict: true }]
    : undefined,
);

const FOCUS =
  /^(?:focus|put (?:the )?(?:cursor|focus)|place (?:the )?cursor|set (?:the )?focus|give focus|move (?:the )?focus)\s+(?:on(?:to)?\s+|in(?:to|side)?\s+|to\s+|at\s+)?(.+)$/i;

/** "focus into the textbox", "put the cursor in the Name field": keyboard focus, no click. */
export const parseFocus = clauseParser((clause) => {
  const match = FOCUS.exec(clause.head);
  return match ? [{ kind: 'focus', target: parseTarget(clause, match[1]!) }] : undefined;
});

/** "navigate through the file tree", "look around the menu": scene-setting; the next step does the finding. */
export const parseContext = clauseParser((clause) => {
  const match = /^(?:navigate|go|browse|look|move|search|dig)\s+(?:through|around|within|across)\s+(.+)$/i.exec(
    clause.raw,
  );
  return match ? [{ kind: 'context', text: textOf(clause, clause.raw) }] : undefined;
});
