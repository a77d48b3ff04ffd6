import { type ClauseParser, listTargets, parseTarget, stripArticle, textOf } from './grammar';
import type { SubStep } from './substeps';

/** "close the dialog", "dismiss the cookie banner". */
export const parseDismiss: ClauseParser = ({ head }) =>
  /^(?:close|dismiss|exit|hide)\s+(?:the\s+|this\s+)?(?:[\w-]+\s+)?(?:dialog|modal|pop-?up|overlay|banner|notice|window|message|alert)$/i.test(
    head,
  )
    ? [{ kind: 'dismiss' }]
    : undefined;

const EXPAND = /^(expand|unfold|open up|reveal|show|open|collapse|fold|close|hide)\s+(.+)$/i;

/** "expand the Warranty section", "collapse Care instructions", "open the shipping question". */
export const parseExpand: ClauseParser = (clause) => {
  const match = EXPAND.exec(clause.head);
  if (!match) return undefined;
  const verb = match[1]!.toLowerCase();
  const target = parseTarget(clause, match[2]!);
  const explicit = /^(?:expand|unfold|collapse|fold)$/.test(verb);
  if (!explicit && target.kind !== 'section') return undefined;
  const expanded = !/^(?:collapse|fold|close|hide)$/.test(verb);
  return listTargets(clause, match[2]!).map((t): SubStep => ({ kind: 'expand', target: t, expanded }));
};

/** "add the Bolt Drill to the cart" → a click on the control that says so. */
export const parseAddTo: ClauseParser = (clause) => {
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
};

/** "accept the terms", "agree to the conditions": tick the box, or press the button that says so. */
export const parseAccept: ClauseParser = (clause) => {
  const match = /^(accept|agree to|agree with|consent to|dismiss|reject|decline)\s+(.+)$/i.exec(clause.head);
  if (!match) return undefined;
  const text = `${match[1]} ${parseTarget(clause, match[2]!).text}`;
  return [{ kind: 'click', target: { text }, ensureChecked: /^(?:accept|agree|consent)/i.test(match[1]!) }];
};

const CLICK =
  /^(?:(double[- ]?click|double[- ]?tap)|click|tap|press|hit|push|activate|follow|open|go to|goto|switch to|navigate to|visit|view|show|display|use)\s+(?:on\s+|at\s+)?(.+)$/i;

/** "click Sign in", "tap on the 'Reviews' tab", "open the first result", "click A and then B". */
export const parseClick: ClauseParser = (clause) => {
  const match = CLICK.exec(clause.head);
  if (!match) return undefined;
  const double = match[1] !== undefined;
  return listTargets(clause, match[2]!).map(
    (target): SubStep => ({ kind: 'click', target, ...(double ? { double } : {}) }),
  );
};

/** Verbs that usually name their own button: "save the settings", "send the form", "create an account". */
const ACTION_VERB =
  /^(?:save|send|create|delete|remove|subscribe|unsubscribe|register|confirm|continue|proceed|apply|download|share|checkout|check out|buy|order|book|reply|retry|refresh|reset|cancel|next|previous)\b/i;

export const parseActionVerb: ClauseParser = (clause) =>
  ACTION_VERB.test(clause.head)
    ? [{ kind: 'click', target: { text: textOf(clause, clause.raw) }, strict: true }]
    : undefined;
