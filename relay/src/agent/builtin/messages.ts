import { excerpt } from '../quote';

/** How to get a planner that understands free-form tasks; said whenever the built-in planner gives up. */
export const MODEL_HINT =
  'For free-form tasks, configure a model: set OPENAI_API_KEY (and OPENAI_BASE_URL for any other OpenAI-compatible server) and TANDEM_MODEL_FAST, see the README.';

const EXAMPLES =
  'open example.com, click "Sign in", type "hello" into Search, select Canada from Country, check "Remember me", press Enter, scroll down, search for shoes, log in as ada with password secret, what is the price of X?';

/** The part of the instruction the grammar could not read. */
export function understandQuestion(text: string, why?: string): string {
  if (why) return `I could not follow "${excerpt(text)}": ${why}. ${MODEL_HINT}`;
  return `I could not understand "${excerpt(text)}". Without a model I follow explicit steps such as: ${EXAMPLES} Please rephrase it that way. ${MODEL_HINT}`;
}

/** Words that fit several elements, or an element that is not there ("the 2nd link" on a page with one). */
export function whichQuestion(what: string): string {
  return `Please tell me ${what}. Answer with its name, for example: click "…". ${MODEL_HINT}`;
}

/** A target that is not on the page, after waiting and scrolling. */
export function notFoundQuestion(what: string, where: string, tried: string[]): string {
  const how = tried.length ? ` (I ${tried.join(' and ')})` : '';
  return `I could not find ${what} on ${where}${how}. Tell me what to do instead (for example: click "…"), or answer "retry". ${MODEL_HINT}`;
}

/** An action that kept failing; the browser's message loses its element indices (the user never sees them). */
export function failedQuestion(note: string, message: string): string {
  return `I could not finish: ${note} failed twice (${withoutIndices(message)}). Tell me what to do instead, or answer "retry". ${MODEL_HINT}`;
}

/** "Clicked <button "Send"> [5]." → "Clicked <button "Send">.": indices mean something to the model only. */
export function withoutIndices(message: string): string {
  return message.replace(/ ?\[\d+\]/g, '');
}

/** The DONE message: the answers asked for, after a short summary of what was done. */
export function finalMessage(notes: string[], answers: string[]): string {
  notes = notes.filter(Boolean);
  const did = notes.length ? `Done: ${notes.join('; ')}.` : 'Done.';
  if (answers.length === 0) return did;
  return notes.length ? `${answers.join(' ')} (${did})` : answers.join(' ');
}
