import { hasQuote, isQuoted, restore, type Slot } from './split';
import type { SubStep, Target, TargetKind } from './substeps';

/** One clause as the clause parsers see it. Parsers return undefined when the clause is not theirs. */
export interface ClauseInput {
  /** The clause without its list items, placeholders kept, lower-cased copies are made by the parsers. */
  head: string;
  items: string[];
  raw: string;
  question: boolean;
  slots: Slot[];
}

export type ClauseParser = (clause: ClauseInput) => SubStep[] | undefined;

/** Helpers bound to one instruction's protected pieces. */
export function textOf(clause: ClauseInput, text: string): string {
  return restore(text, clause.slots);
}

export const quoted = (clause: ClauseInput, text: string) => isQuoted(text, clause.slots);
export const anyQuote = (clause: ClauseInput, text: string) => hasQuote(text, clause.slots);

const ARTICLE = /^(?:the|a|an|my|your|our|this|that|its|their)\s+/i;

const KIND_WORDS: [RegExp, TargetKind][] = [
  [/^(?:button|btn)$/, 'button'],
  [/^(?:link|hyperlink)$/, 'link'],
  [/^tab$/, 'tab'],
  [/^(?:menu ?item|menu entry|menu option)$/, 'menuitem'],
  [/^(?:check ?box(?:es)?|box(?:es)?|toggle|switch)$/, 'checkbox'],
  [/^(?:radio(?: button)?)$/, 'radio'],
  [/^option$/, 'option'],
  [/^(?:field|text ?box|input(?: field| box)?|text field|text area|textarea|area|box)$/, 'field'],
  [/^(?:drop-?down(?: menu| list)?|select(?: box)?|list|menu|combo ?box|picker)$/, 'dropdown'],
  [/^(?:section|panel|accordion|details|question|faq|heading)$/, 'section'],
  [/^(?:result|search result|item|product|entry|article)$/, 'result'],
  [/^page$/, 'link'],
];
const KIND_SUFFIX =
  /\s+(button|btn|link|hyperlink|tab|menu ?item|menu entry|menu option|check ?box(?:es)?|box(?:es)?|toggle|switch|radio(?: button)?|option|field|text ?box|input(?: field| box)?|text field|text area|textarea|drop-?down(?: menu| list)?|select(?: box)?|list|menu|combo ?box|picker|section|panel|accordion|details|question|faq|heading|page)$/i;
const KIND_PREFIX =
  /^(button|link|tab|check ?box|box|radio button|option|field|menu item)\s+(?:called|named|labell?ed|that says|saying|with the text|next to|beside|near|for)?\s*/i;
const NAMED = /^(?:one|element|thing|button|link)\s+(?:called|named|labell?ed|that says|saying|with the text)\s+/i;

const ORDINALS: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
};

export function kindOf(word: string): TargetKind | undefined {
  const lower = word.toLowerCase().trim();
  return KIND_WORDS.find(([pattern]) => pattern.test(lower))?.[1];
}

/** Drops a leading article ("the", "my"). */
export function stripArticle(text: string): string {
  return text.trim().replace(ARTICLE, '').trim();
}

/** "the 'Send' button" → {text: Send, kind: button}; "the second result" → {text: result, ordinal: 2}. */
export function parseTarget(clause: ClauseInput, text: string): Target {
  let rest = stripArticle(text.replace(/^(?:on|at)\s+/i, ''));
  let ordinal: number | undefined;
  const ord = /^(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\s+(.+)$/i.exec(rest);
  if (ord && !quoted(clause, rest)) {
    ordinal = ORDINALS[ord[1]!.toLowerCase()];
    rest = ord[2]!;
  }
  let kind: TargetKind | undefined;
  const suffix = KIND_SUFFIX.exec(rest);
  if (suffix && rest.length > suffix[0].length) {
    kind = kindOf(suffix[1]!);
    rest = rest.slice(0, rest.length - suffix[0].length).trim();
  }
  const prefix = KIND_PREFIX.exec(rest);
  if (prefix && rest.length > prefix[0].length) {
    kind ??= kindOf(prefix[1]!);
    rest = rest.slice(prefix[0].length);
  }
  rest = stripArticle(rest.replace(NAMED, ''));
  if (ordinal !== undefined) kind ??= kindOf(rest);
  return { text: textOf(clause, rest), kind, ordinal };
}

/** The clause's head and items, each as a target ("check A, B and C"). */
export function listTargets(clause: ClauseInput, first: string): Target[] {
  return [first, ...clause.items]
    .map((part) => part.replace(/^(?:both|all of|all|either)\s+/i, ''))
    .filter((part) => part.trim() !== '')
    .map((part) => parseTarget(clause, part));
}
