import {
  anyQuote,
  type ClauseInput,
  type ClauseParser,
  listTargets,
  parseTarget,
  quoted,
  stripArticle,
  textOf,
} from './grammar';
import type { FieldEntry, SubStep } from './substeps';

const PASSWORD =
  /\s*,?\s*(?:and|with|using|,)?\s*(?:the\s+|my\s+|a\s+)?(?:password|pass|pw|pwd|passcode|passphrase)\s*(?:is\s+|of\s+|=\s*|:\s*|as\s+)?(\S+)/i;
const USER =
  /\b(?:as|with|using|for|into)\s+(?:the\s+|my\s+)?(?:(?:user ?name|user|email(?: address)?|account|login)\s*(?:is\s+|of\s+|=\s*|:\s*)?)?(\S+)|\b(?:user ?name|user|email(?: address)?)\s*(?:is\s+|=\s*|:\s*)?(\S+)/i;

/** "log in as ada with password secret", "sign in with username X and password Y". */
export const parseLogin: ClauseParser = (clause) => {
  const match = /^(?:log (?:me )?in(?:to)?|login|sign (?:me )?in(?:to)?|signin|log on(?:to)?)\b(.*)$/i.exec(clause.raw);
  if (!match) return undefined;
  let rest = match[1]!.replace(/^\s+(?:(?:to|on(?:to)?)\s+)?(?:the\s+)?(?:site|page|account|website)\b/i, '');
  const pair = /^\s*(?:as|with|using)\s+(\S+)\s*(?:and|\/|,)\s*(\S+)$/i.exec(rest);
  if (pair && !PASSWORD.test(rest))
    return [{ kind: 'login', user: textOf(clause, pair[1]!), password: textOf(clause, pair[2]!) }];
  const password = PASSWORD.exec(rest);
  if (!password) return undefined;
  rest = rest.replace(password[0], ' ');
  const user = USER.exec(rest);
  const name = user?.[1] ?? user?.[2];
  if (!name) return undefined;
  return [{ kind: 'login', user: textOf(clause, name), password: textOf(clause, password[1]!) }];
};

const QUESTION_LIKE = /^(?:the\s+)?(?:price|cost|rating|stock|total|name|title|value|number|amount)\s+(?:of|for)\b/i;

/** "search for shoes", "look up 'red kettle' on the site", "find headphones". */
export const parseSearch: ClauseParser = (clause) => {
  const match =
    /^(?:search|look up|lookup|look for|find|query|do a search)\s+(?:for\s+|the (?:site|page|shop|store) for\s+)?(.+?)(?:\s+(?:on|in|using|with)\s+(?:the\s+)?(?:site|page|shop|store|search(?: box| bar| field)?|website))?$/i.exec(
      clause.raw,
    );
  if (!match || QUESTION_LIKE.test(match[1]!)) return undefined;
  if (/^(?:out|the (?:search|query) (?:box|field|bar))\b/i.test(match[1]!)) return undefined;
  return [{ kind: 'search', query: textOf(clause, stripArticleUnlessQuoted(clause, match[1]!)) }];
};

function stripArticleUnlessQuoted(clause: ClauseInput, text: string): string {
  return quoted(clause, text) ? text : text.replace(/^(?:the|some|a|an)\s+/i, '');
}

const CHECK =
  /^(?:(un)(?:check|tick|mark|select)|(check|tick|mark|enable|turn on|switch on|toggle on|activate)|(disable|turn off|switch off|toggle off|deselect|clear))\s+(.+?)(?:\s+(on|off))?$/i;
const TURN = /^(?:turn|switch|toggle)\s+(.+?)\s+(on|off)$/i;

/** "check A, B and C", "untick the newsletter", "turn dark mode on". */
export const parseCheck: ClauseParser = (clause) => {
  const turn = TURN.exec(clause.head);
  if (turn) return checks(clause, turn[1]!, turn[2]!.toLowerCase() === 'on');
  const match = CHECK.exec(clause.head);
  if (!match) return undefined;
  if (/^clear$/i.test(match[3] ?? '')) return undefined;
  const off = match[1] !== undefined || match[3] !== undefined || match[5]?.toLowerCase() === 'off';
  return checks(clause, match[4]!, !off);
};

function checks(clause: ClauseInput, first: string, checked: boolean): SubStep[] {
  return listTargets(clause, first).map((target): SubStep => ({ kind: 'check', target, checked }));
}

const SELECT = /^(?:select|choose|pick)\s+(.+?)\s+(?:from|in|on|under|within|for)\s+(.+)$/i;
const SELECT_AS = /^(?:select|choose|pick)\s+(.+?)\s+as\s+(?:the\s+|my\s+|your\s+)?(.+)$/i;
const DROPDOWN_SUFFIX =
  /\s+(?:drop-?down(?: menu| list)?|list|menu|select(?: box)?|combo ?box|field|box|options|picker)$/i;

/** "select Mexico from the country dropdown", "choose Express as the speed", "pick UPS". */
export const parseSelect: ClauseParser = (clause) => {
  const pair = SELECT.exec(clause.head) ?? SELECT_AS.exec(clause.head);
  if (pair) {
    // More "option in list" pairs may follow: "choose Canada in Country and Mexico in Region".
    const more = clause.items.map((item) => /^(.+?)\s+(?:from|in|on|under|within|for|as)\s+(.+)$/i.exec(item));
    return [pair, ...more]
      .filter((m) => m !== null)
      .map((m): SubStep => {
        const field = stripArticle(stripArticle(m[2]!)).replace(DROPDOWN_SUFFIX, '');
        return { kind: 'select', option: optionText(clause, m[1]!), field: textOf(clause, field) };
      });
  }
  const match = /^(?:select|choose|pick)\s+(.+)$/i.exec(clause.head);
  if (!match) return undefined;
  return [match[1]!, ...clause.items].map((part): SubStep => {
    const target = parseTarget(clause, part);
    if (target.kind && target.kind !== 'option' && target.kind !== 'checkbox' && target.kind !== 'radio') {
      return { kind: 'click', target };
    }
    if (target.kind === 'checkbox') return { kind: 'check', target, checked: true };
    return { kind: 'select', option: target.text };
  });
};

function optionText(clause: ClauseInput, text: string): string {
  const cleaned = quoted(clause, text)
    ? text
    : stripArticle(text)
        .replace(/\s+option$/i, '')
        .replace(/^option\s+/i, '');
  return textOf(clause, cleaned);
}

/** "set the country to Mexico", "change the display name to Ada". */
export const parseSet: ClauseParser = (clause) => {
  const match = /^(?:set|change|update|switch)\s+(.+?)\s+(?:to|as|=)\s+(.+)$/i.exec(clause.head);
  if (!match) return undefined;
  const entries = [
    entry(clause, match[2]!, match[1]!),
    ...clause.items.flatMap((item) => itemEntry(clause, item, 'set')),
  ];
  return entries.map((e): SubStep => ({ kind: 'fill', entry: e }));
};

/** "clear the search box" (an empty value: typed fields are emptied, boxes unticked). */
export const parseClear: ClauseParser = (clause) => {
  const match = /^(?:clear|empty|erase)\s+(?:out\s+)?(.+)$/i.exec(clause.head);
  if (!match) return undefined;
  return [match[1]!, ...clause.items].map(
    (part): SubStep => ({ kind: 'fill', entry: { value: '', field: fieldText(clause, part) } }),
  );
};

const TYPE = /^(type|enter|fill(?:\s+(?:in|out))?|write|input|put|key in|insert|provide|paste|use)\s+(.+)$/i;

/** "type hello into Search", "fill the name with Ada", "enter the username X and the password Y". */
export const parseFill: ClauseParser = (clause) => {
  const match = TYPE.exec(clause.head);
  if (!match) return undefined;
  const verb = match[1]!.toLowerCase().split(/\s+/)[0]!;
  let first = match[2]!;
  const form = /^(?:the\s+|this\s+)?form\s*(?:with|:|using)?\s*(.*)$/i.exec(first);
  if (form) first = form[1]!;
  const parts = [first, ...clause.items].filter((part) => part.trim());
  const entries = parts.flatMap((part) => itemEntry(clause, part, verb));
  return entries.map((e): SubStep => ({ kind: 'fill', entry: e }));
};

function itemEntry(clause: ClauseInput, part: string, verb: string): FieldEntry[] {
  if (verb === 'set') {
    const set = /^(.+?)\s+(?:to|as|=)\s+(.+)$/i.exec(part);
    return set ? [entry(clause, set[2]!, set[1]!)] : [{ value: '', raw: textOf(clause, stripArticle(part)) }];
  }
  const withValue = /^(?:in\s+)?(.+?)\s*(?:\s(?:with|to be)\s+|:\s*|=\s*)(.+)$/i.exec(part);
  if (verb === 'fill' && withValue) return [entry(clause, withValue[2]!, withValue[1]!)];
  // Value first, field after the last preposition: "type hello into the search box", "enter Ada as the name".
  const into = /^(.+)\s+(?:into|in|inside|to|on|as|for|under)\s+(.+)$/i.exec(part);
  if (into) return [entry(clause, into[1]!, into[2]!)];
  if (withValue) return [entry(clause, withValue[2]!, withValue[1]!)];
  if (anyQuote(clause, part)) {
    const value = /\uE000\d+\uE001/.exec(part)![0];
    const field = part.replace(value, '').trim();
    return [entry(clause, value, field || undefined)];
  }
  // "the username admin": which words name the field is decided against the page.
  const plain = /^(?:the|my|your)\s/i.test(part) || !['type', 'write', 'paste'].includes(verb);
  if (plain && part.trim().split(/\s+/).length >= 2) return [{ value: '', raw: textOf(clause, stripArticle(part)) }];
  return [{ value: textOf(clause, part) }];
}

function entry(clause: ClauseInput, value: string, field: string | undefined): FieldEntry {
  return { value: textOf(clause, value.trim()), field: field === undefined ? undefined : fieldText(clause, field) };
}

function fieldText(clause: ClauseInput, field: string): string {
  const target = parseTarget(clause, field);
  return target.text;
}
