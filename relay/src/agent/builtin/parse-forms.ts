import {
  anyQuote,
  type ClauseInput,
  clauseParser,
  kindOf,
  listTargets,
  parseTarget,
  quoted,
  stripArticle,
  textOf,
} from './grammar';
import type { FieldEntry, SubStep, ValueShape } from './substeps';

const PASSWORD =
  /\s*,?\s*(?:and|with|using|,)?\s*(?:the\s+|my\s+|a\s+)?(?:password|pass|pw|pwd|passcode|passphrase)\s*(?:is\s+|of\s+|=\s*|:\s*|as\s+)?(\S+)/i;
const USER =
  /\b(?:as|with|using|for|into)\s+(?:the\s+|my\s+)?(?:(?:user ?name|user|email(?: address)?|account|login)\s*(?:is\s+|of\s+|=\s*|:\s*)?)?(\S+)|\b(?:user ?name|user|email(?: address)?)\s*(?:is\s+|=\s*|:\s*)?(\S+)/i;

/** "log in as ada with password secret", "sign in with username X and password Y". */
export const parseLogin = clauseParser((clause) => {
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
});

const QUESTION_LIKE = /^(?:the\s+)?(?:price|cost|rating|stock|total|name|title|value|number|amount)\s+(?:of|for)\b/i;

/** "search for shoes", "look up 'red kettle' on the site", "find headphones". */
export const parseSearch = clauseParser((clause) => {
  const match =
    /^(?:search|look up|lookup|look for|find|query|do a search)\s+(?:for\s+|the (?:site|page|shop|store) for\s+)?(.+?)(?:\s+(?:on|in|using|with)\s+(?:the\s+)?(?:site|page|shop|store|search(?: box| bar| field)?|website))?$/i.exec(
      clause.raw,
    );
  if (!match || QUESTION_LIKE.test(match[1]!)) return undefined;
  if (/^(?:out|the (?:search|query) (?:box|field|bar))\b/i.test(match[1]!)) return undefined;
  // The whole clause was read, its list items included ("search for shoes and socks").
  return [{ kind: 'search', query: textOf(clause, stripArticleUnlessQuoted(clause, match[1]!)) }];
});

function stripArticleUnlessQuoted(clause: ClauseInput, text: string): string {
  return quoted(clause, text) ? text : text.replace(/^(?:the|some|a|an)\s+/i, '');
}

/** "find the email by Ada", "locate the file named X": a described item is opened; plain words are searched for. */
export const parseFind = clauseParser((clause) => {
  const match = /^(?:find|locate|look for|spot)\s+(.+)$/i.exec(clause.head);
  if (!match || clause.items.length > 0) return undefined;
  const text = match[1]!;
  const described =
    /\s(?:called|named|labell?ed|titled|entitled|that says|saying|with the (?:text|name|title))\s|^(?:the\s+)?(?:[\w-]+\s+)?(?:e-?mails?|messages?|mails?|posts?|comments?|threads?|conversations?|reviews?)\s+(?:by|from)\s/i;
  if (!described.test(text)) return undefined;
  return [{ kind: 'click', target: parseTarget(clause, text) }];
});

const CHECK =
  /^(?:(un)(?:check|tick|mark|select)|(check|tick|mark|enable|turn on|switch on|toggle on|activate)|(disable|turn off|switch off|toggle off|deselect|clear))\s+(.+?)(?:\s+(on|off))?$/i;
const TURN = /^(?:turn|switch|toggle)\s+(.+?)\s+(on|off)$/i;
const NOTHING = /^(?:select|choose|pick|check|tick|mark)\s+(?:nothing|none|no (?:boxes|options|items))$/i;

/** "check A, B and C", "untick the newsletter", "turn dark mode on", "select nothing". */
export const parseCheck = clauseParser((clause) => {
  if (NOTHING.test(clause.head) && clause.items.length === 0) {
    return [{ kind: 'check', target: { text: '', kind: 'checkbox', all: true }, checked: false }];
  }
  const turn = TURN.exec(clause.head);
  if (turn) return checks(clause, turn[1]!, turn[2]!.toLowerCase() === 'on');
  const match = CHECK.exec(clause.head);
  if (!match) return undefined;
  if (/^clear$/i.test(match[3] ?? '')) return undefined;
  const off = match[1] !== undefined || match[3] !== undefined || match[5]?.toLowerCase() === 'off';
  return checks(clause, match[4]!, !off);
});

function checks(clause: ClauseInput, first: string, checked: boolean): SubStep[] {
  return listTargets(clause, first).map((target): SubStep => ({ kind: 'check', target, checked }));
}

const NUMBER = /^[-+−]?\d+(?:\.\d+)?$/;
const SLIDE_WITH =
  /^(?:select|choose|pick|set|enter|move to|slide to|drag to)\s+(?:the\s+)?(?:value\s+|number\s+)?(\S+)\s+(?:with|using|on|in)\s+(.+)$/i;
const SLIDE_TO = /^(?:set|move|drag|slide|adjust|put)\s+(.+?)\s+(?:to|at)\s+(?:the\s+)?(?:value\s+)?(\S+)$/i;

/** "select 5 with the slider", "move the volume slider to 30". */
export const parseSlide = clauseParser((clause) => {
  const withSlider = SLIDE_WITH.exec(clause.head);
  const to = withSlider ? null : SLIDE_TO.exec(clause.head);
  const [valueText, targetText] = withSlider ? [withSlider[1]!, withSlider[2]!] : to ? [to[2]!, to[1]!] : [];
  if (valueText === undefined || targetText === undefined) return undefined;
  const value = textOf(clause, valueText).replace('−', '-');
  if (!NUMBER.test(value)) return undefined;
  const target = parseTarget(clause, targetText);
  // "set the quantity to 3" is a field; only a named slider is moved here (a slider found by name is too, later).
  if (target.kind !== 'slider') return undefined;
  return [{ kind: 'slide', target, value: Number(value) }];
});

const SELECT = /^(?:select|choose|pick)\s+(.+?)\s+(?:from|in|on|under|within|for)\s+(.+)$/i;
const SELECT_AS = /^(?:select|choose|pick)\s+(.+?)\s+as\s+(?:the\s+|my\s+|your\s+)?(.+)$/i;
const SELECT_WITH =
  /^(?:select|choose|pick)\s+(.+?)\s+(?:with|using|on|in)\s+(?:the\s+)?((?:[\w-]+\s+)?(?:spinner|spin ?box|slider|stepper|number (?:box|field|input)|counter))$/i;
const DROPDOWN_SUFFIX =
  /\s+(?:drop-?down(?: menu| list)?|list|menu|select(?: box)?|combo ?box|field|box|options|picker)$/i;

/** "select Mexico from the country dropdown", "choose Express as the speed", "pick UPS". */
export const parseSelect = clauseParser((clause) => {
  // "select 4 with the spinner", "pick 7 using the slider": the value goes into that control.
  const using = SELECT_WITH.exec(clause.head);
  if (using && clause.items.length === 0) {
    return [{ kind: 'fill', entry: entry(clause, optionText(clause, using[1]!), using[2]!) }];
  }
  const pair = SELECT.exec(clause.head) ?? SELECT_AS.exec(clause.head);
  if (pair) {
    // More "option in list" pairs may follow: "choose Canada in Country and Mexico in Region".
    const more = clause.items.map((item) => /^(.+?)\s+(?:from|in|on|under|within|for|as)\s+(.+)$/i.exec(item));
    return [pair, ...more]
      .filter((m) => m !== null)
      .map((m): SubStep => {
        const field = stripArticle(stripArticle(m[2]!));
        // "from the list": the kind alone names no field; the option decides which list.
        const named = kindOf(field) ? undefined : textOf(clause, field.replace(DROPDOWN_SUFFIX, ''));
        return { kind: 'select', option: optionText(clause, m[1]!), field: named };
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
});

function optionText(clause: ClauseInput, text: string): string {
  const cleaned = quoted(clause, text)
    ? text
    : stripArticle(text)
        .replace(/\s+option$/i, '')
        .replace(/^option\s+/i, '');
  return textOf(clause, cleaned);
}

/** "set the country to Mexico", "change the display name to Ada". */
export const parseSet = clauseParser((clause) => {
  const match = /^(?:set|change|update|switch)\s+(.+?)\s+(?:to|as|=)\s+(.+)$/i.exec(clause.head);
  if (!match) return undefined;
  const entries = [
    entry(clause, match[2]!, match[1]!),
    ...clause.items.flatMap((item) => itemEntry(clause, item, 'set')),
  ];
  return entries.map((e): SubStep => ({ kind: 'fill', entry: e }));
});

/** "clear the search box" (an empty value: typed fields are emptied, boxes unticked). */
export const parseClear = clauseParser((clause) => {
  const match = /^(?:clear|empty|erase)\s+(?:out\s+)?(.+)$/i.exec(clause.head);
  if (!match) return undefined;
  return [match[1]!, ...clause.items].map((part): SubStep => ({ kind: 'fill', entry: fieldEntry(clause, '', part) }));
});

const TYPE = /^(type|enter|fill(?:\s+(?:in|out))?|write|input|put|key in|insert|provide|paste|use)\s+(.+)$/i;
/** "starts with X", "that ends with Y", "containing Z": one part of a value the user describes. */
const SHAPE =
  /^(?:(?:that|which|and|it)\s+){0,2}(starts?|begins?|ends?|starting|beginning|ending|contains?|containing|includes?|including)\s+(?:with\s+)?(.+)$/i;
const DETERMINER = /^(?:an?|the|some|any|one)$/i;
/** "type hello into Search", "fill the name with Ada", "enter the username X and the password Y". */
export const parseFill = clauseParser((clause) => {
  const match = TYPE.exec(clause.head);
  if (!match) return undefined;
  const verb = match[1]!.toLowerCase().split(/\s+/)[0]!;
  let first = match[2]!;
  const form = /^(?:the\s+|this\s+)?form\s*(?:with|:|using)?\s*(.*)$/i.exec(first);
  if (form) first = form[1]!;
  const shaped = describedValue(clause, first);
  if (shaped) return shaped;
  const parts = [first, ...clause.items].filter((part) => part.trim());
  const entries = parts.flatMap((part) => itemEntry(clause, part, verb));
  const steps = entries.map((e): SubStep => ({ kind: 'fill', entry: e }));
  // "enter 42" with no field: the value is typed and sent, as Enter would.
  if (verb === 'enter' && entries.length === 1 && entries[0]!.field === undefined && entries[0]!.raw === undefined) {
    steps.push({ kind: 'submit', implicit: true });
  }
  return steps;
});

/** "enter an item that starts with 'Egy' and ends with 'pt'": type the start, then pick what fits. */
function describedValue(clause: ClauseInput, first: string): SubStep[] | undefined {
  const words = first.split(' ');
  if (!DETERMINER.test(words[0] ?? '')) return undefined;
  // "an item that starts with": the determiner, up to two words for the thing, then the shape.
  let lead: RegExpExecArray | null = null;
  let k = 1;
  for (; k <= 3 && !lead; k++) lead = SHAPE.exec(words.slice(k).join(' '));
  if (!lead) return undefined;
  const hint = words.slice(1, k - 1).join(' ');
  const shape: ValueShape = {};
  for (const part of [lead, ...clause.items.map((item) => SHAPE.exec(item))]) {
    if (!part) return undefined;
    const value = textOf(clause, stripArticleUnlessQuoted(clause, part[2]!));
    const how = part[1]!.toLowerCase();
    if (how.startsWith('start') || how.startsWith('begin')) shape.startsWith = value;
    else if (how.startsWith('end')) shape.endsWith = value;
    else shape.contains = value;
  }
  const typed = shape.startsWith ?? shape.contains;
  if (!typed) return undefined;
  return [
    { kind: 'fill', entry: { value: typed, shape, ...(hint ? { hint } : {}) } },
    { kind: 'submit', implicit: true },
  ];
}

/** Generic kinds after "into": "into the text field" names no field; "into both text fields" means all of them. */
const INTO = /^(.+)\s+(?:into|in|inside|to|on|as|for|under)\s+(.+)$/i;

function itemEntry(clause: ClauseInput, part: string, verb: string): FieldEntry[] {
  if (verb === 'set') {
    const set = /^(.+?)\s+(?:to|as|=)\s+(.+)$/i.exec(part);
    return set ? [entry(clause, set[2]!, set[1]!)] : [{ value: '', raw: textOf(clause, stripArticle(part)) }];
  }
  const withValue = /^(?:in\s+)?(.+?)\s*(?:\s(?:with|to be)\s+|:\s*|=\s*)(.+)$/i.exec(part);
  if (verb === 'fill' && withValue) return [entry(clause, withValue[2]!, withValue[1]!)];
  // Value first, field after the last preposition: "type hello into the search box", "enter Ada as the name".
  const into = INTO.exec(part);
  if (into) {
    const field = parseTarget(clause, into[2]!);
    // "the password 'x' into both text fields": the words before the value say which fields.
    if (field.text === '' && field.kind === 'field') {
      const entries = valueEntry(clause, into[1]!, verb, field.all);
      // "into the text field": no field named, but one meant; with several on the page, which one is asked.
      for (const e of entries) if (!e.all && e.field === undefined && e.raw === undefined) e.generic = true;
      return entries;
    }
    return [entry(clause, into[1]!, into[2]!)];
  }
  if (withValue) return [entry(clause, withValue[2]!, withValue[1]!)];
  return valueEntry(clause, part, verb, false);
}

/** A value with maybe the words of its field before it: "'x'", "the password 'x'", "the username admin". */
function valueEntry(clause: ClauseInput, part: string, verb: string, all: boolean | undefined): FieldEntry[] {
  const extra = all ? { all: true } : {};
  if (anyQuote(clause, part)) {
    const value = /\uE000\d+\uE001/.exec(part)![0];
    const field = stripArticle(part.replace(value, '').trim());
    return [{ ...entry(clause, value, field || undefined), ...extra }];
  }
  if (vague(part)) return [{ value: textOf(clause, part), vague: true, ...extra }];
  // "the username admin": which words name the field is decided against the page.
  const plain = /^(?:the|my|your)\s/i.test(part) || !['type', 'write', 'paste'].includes(verb);
  if (plain && part.trim().split(/\s+/).length >= 2)
    return [{ value: '', raw: textOf(clause, stripArticle(part)), ...extra }];
  return [{ value: textOf(clause, part), ...extra }];
}

/**
 * Words that stand for a value without saying it: "something sensible", "any name", "a random word",
 * "the text below" (what the page shows, perhaps only in a picture).
 */
const VAGUE =
  /^(?:(?:some|any|a|an)\s+)?(?:something|anything|whatever|sensible|appropriate|suitable|reasonable|relevant|valid|random|dummy|fake|made-?up|some(?:thing)? (?:sensible|appropriate|suitable|reasonable|relevant|valid))\b|^(?:some|any)\s+(?:[\w-]+\s+)?(?:text|value|data|name|word|number|words|content|info|information)$|^(?:it|them)\s+(?:with|to)\s+|^(?:the|this|that)\s+(?:[\w-]+\s+)?(?:text|word|words|number|code|value|phrase|letters|characters)\s+(?:below|above|shown|displayed|here|there|on the (?:page|screen)|in the (?:image|picture))\b/i;

function vague(part: string): boolean {
  return VAGUE.test(part.trim());
}

function entry(clause: ClauseInput, value: string, field: string | undefined): FieldEntry {
  const text = value.trim();
  const result: FieldEntry = { value: textOf(clause, text) };
  if (field !== undefined) Object.assign(result, fieldEntry(clause, '', field), { value: result.value });
  if (!quoted(clause, text) && vague(text)) result.vague = true;
  return result;
}

/** The field words of an entry; a kind alone ("the text field") names no particular field. */
function fieldEntry(clause: ClauseInput, value: string, field: string): FieldEntry {
  const target = parseTarget(clause, field);
  const result: FieldEntry = { value };
  if (target.text !== '' || target.kind !== 'field') result.field = target.text || field;
  else if (!target.all) result.generic = true;
  if (target.all) result.all = true;
  return result;
}
