import { hasQuote, isQuoted, MAX_CLAUSE_CHARS, restore, type Slot } from './split';
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

/**
 * A clause parser that refuses clauses longer than MAX_CLAUSE_CHARS at once: its regular expressions
 * then only ever see short text, so no input can make them slow.
 */
export function clauseParser(parse: ClauseParser): ClauseParser {
  return (clause) => (clause.raw.length > MAX_CLAUSE_CHARS ? undefined : parse(clause));
}

/** Helpers bound to one instruction's protected pieces. */
export function textOf(clause: ClauseInput, text: string): string {
  return restore(text, clause.slots);
}

export const quoted = (clause: ClauseInput, text: string) => isQuoted(text, clause.slots);
export const anyQuote = (clause: ClauseInput, text: string) => hasQuote(text, clause.slots);

const ARTICLE = /^(?:the|a|an|my|your|our|this|that|its|their)\s+/i;

/** Words that name a kind of element, singular and plural; "" entries are kinds the matcher knows by words only. */
const KIND_WORDS: [RegExp, TargetKind][] = [
  [/^(?:button|btn)s?$/, 'button'],
  [/^(?:link|hyperlink)s?$/, 'link'],
  [/^tabs?$/, 'tab'],
  [/^(?:menu ?items?|menu entry|menu entries|menu options?)$/, 'menuitem'],
  [/^(?:check ?box(?:es)?|box(?:es)?|tick ?box(?:es)?|toggles?|switch(?:es)?)$/, 'checkbox'],
  [/^(?:radio(?: buttons?)?|radios)$/, 'radio'],
  [/^options?$/, 'option'],
  [
    /^(?:fields?|text ?box(?:es)?|inputs?(?: fields?| box(?:es)?)?|text fields?|text inputs?|text areas?|textareas?|areas?|entry fields?|input areas?)$/,
    'field',
  ],
  [
    /^(?:drop-?downs?(?: menus?| lists?)?|selects?(?: box(?:es)?)?|lists?|list ?box(?:es)?|menus?|combo ?box(?:es)?|pickers?)$/,
    'dropdown',
  ],
  [/^(?:sections?|panels?|accordions?|details|questions?|faqs?|headings?|headers?)$/, 'section'],
  [/^(?:results?|search results?|items?|products?|entry|entries|articles?|hits?)$/, 'result'],
  [/^(?:sliders?|range(?: sliders?)?|slider handles?|handles?)$/, 'slider'],
  [/^(?:icons?|images?|symbols?|glyphs?)$/, 'icon'],
  [/^pages?$/, 'link'],
];
const KIND_SUFFIX =
  /\s+(buttons?|btns?|links?|hyperlinks?|tabs?|menu ?items?|menu entry|menu options?|check ?box(?:es)?|box(?:es)?|toggles?|switch(?:es)?|radio(?: buttons?)?|options?|fields?|text ?box(?:es)?|inputs?(?: fields?| box(?:es)?)?|text fields?|text areas?|textareas?|drop-?downs?(?: menus?| lists?)?|select(?: box)?|lists?|list ?box|menus?|combo ?box|pickers?|sections?|panels?|accordions?|details|questions?|faqs?|headings?|sliders?|icons?|page)$/i;
const KIND_PREFIX =
  /^(buttons?|links?|tabs?|check ?box(?:es)?|box(?:es)?|radio buttons?|options?|fields?|menu items?|icons?)\s+(?:called|named|labell?ed|that says|saying|with the text|next to|beside|near|for)?\s*/i;
const NAMED = /^(?:one|element|thing|button|link)\s+(?:called|named|labell?ed|that says|saying|with the text)\s+/i;
/** "the folder or file named X", "the option labelled X": the words after say which one. */
const NAMED_AFTER =
  /^((?:[\w-]+\s+){0,3}[\w-]+)\s+(?:called|named|labell?ed|titled|entitled|that says|which says|saying|that reads|reading|with the (?:text|name|title|label)|with text)\s+(.+)$/i;
/** Things known by who wrote or sent them: "the email by Ada", "the message from Bob". */
const AUTHORED =
  /^((?:[\w-]+\s+)?(?:e-?mails?|messages?|mails?|posts?|comments?|notes?|tweets?|threads?|conversations?|reviews?|articles?|stories|story|books?|songs?|videos?|letters?))\s+(?:by|from|of)\s+(.+)$/i;
/** Where on the page: carries nothing the matcher can use. */
const POSITION =
  /\s+(?:below|above|here|underneath|beneath|(?:on|in) (?:the|this) (?:page|screen|form|dialog)|(?:on|at) the (?:left|right|top|bottom)(?: of the (?:page|screen))?)$/i;

const ORDINAL_WORDS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  last: -1,
};
const ORDINAL =
  /^(?:(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|last)|(\d{1,3})(?:st|nd|rd|th)|(?:number|no\.?|#)\s?(\d{1,3}))\s+(.+)$/i;
const QUANTIFIER = /^(?:(both(?: of)?|all(?: of)?|each(?: of)?|every)|either|any(?: of)?)\s+(?:the\s+)?(.+)$/i;

export function kindOf(word: string): TargetKind | undefined {
  if (word.length > 40) return undefined;
  const lower = word.toLowerCase().trim();
  return KIND_WORDS.find(([pattern]) => pattern.test(lower))?.[1];
}

/** Whether a kind word is plural ("boxes", "fields"): it then means all of them. */
function plural(word: string): boolean {
  const lower = word.toLowerCase().trim();
  return /(?:[^s]s|boxes|switches|entries)$/.test(lower) && lower !== 'details' && lower !== 'radios';
}

/** Drops a leading article ("the", "my"). */
export function stripArticle(text: string): string {
  return text.trim().replace(ARTICLE, '').trim();
}

/**
 * "the 'Send' button" → {text: Send, kind: button}; "the second result" → {text: "", kind: result,
 * ordinal: 2}; "both text fields" → {text: "", kind: field, all}; "the email by Ada" → {text: Ada}.
 */
export function parseTarget(clause: ClauseInput, text: string): Target {
  // Longer than a clause: no name of an element; taken as words, without reading it.
  if (text.length > MAX_CLAUSE_CHARS) return { text: textOf(clause, text) };
  let rest = stripArticle(text.replace(/^(?:on|at|onto|into|in|inside)\s+/i, ''));
  if (!quoted(clause, rest)) rest = rest.replace(POSITION, '');
  // "both", "all", "each" mean every element of a kind ("both text fields"); before names they just list them.
  let every = false;
  const quantifier = QUANTIFIER.exec(rest);
  if (quantifier && !quoted(clause, rest)) {
    every = quantifier[1] !== undefined;
    rest = quantifier[2]!;
  }
  let ordinal: number | undefined;
  const ord = ORDINAL.exec(rest);
  if (ord && !quoted(clause, rest)) {
    ordinal = ord[1] ? ORDINAL_WORDS[ord[1].toLowerCase()] : Number(ord[2] ?? ord[3]);
    rest = ord[4]!;
  }
  const named = NAMED_AFTER.exec(rest) ?? AUTHORED.exec(rest);
  if (named && !quoted(clause, rest)) {
    return finish(clause, named[2]!, kindOf(named[1]!.split(/\s+/).at(-1)!), ordinal, false);
  }
  const only = kindOf(rest);
  if (only && !quoted(clause, rest)) {
    return finish(clause, '', only, ordinal, ordinal === undefined && (every || plural(rest)));
  }
  let kind: TargetKind | undefined;
  let all = false;
  const suffix = KIND_SUFFIX.exec(rest);
  if (suffix && rest.length > suffix[0].length) {
    kind = kindOf(suffix[1]!);
    all = ordinal === undefined && (every || plural(suffix[1]!));
    rest = rest.slice(0, rest.length - suffix[0].length).trim();
  }
  const prefix = KIND_PREFIX.exec(rest);
  if (prefix && rest.length > prefix[0].length) {
    kind ??= kindOf(prefix[1]!);
    rest = rest.slice(prefix[0].length);
  }
  return finish(clause, stripArticle(rest.replace(NAMED, '')), kind, ordinal, all);
}

function finish(
  clause: ClauseInput,
  words: string,
  kind: TargetKind | undefined,
  ordinal: number | undefined,
  all: boolean,
): Target {
  const target: Target = { text: textOf(clause, words), kind };
  if (ordinal !== undefined) target.ordinal = ordinal;
  if (all) target.all = true;
  return target;
}

/** The clause's head and items, each as a target ("check A, B and C"). */
export function listTargets(clause: ClauseInput, first: string): Target[] {
  return [first, ...clause.items].filter((part) => part.trim() !== '').map((part) => parseTarget(clause, part));
}
