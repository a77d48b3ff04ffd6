import type { Snapshot, SnapshotElement, SnapshotOptions } from '@tandem/shared';
import type { StepRecord } from '../src/agent/planner';

/** The page after a task ran: a full-page snapshot, where the viewport is, and the agent's last message. */
export interface FinalState {
  url: string;
  /** The full page's snapshot text. */
  text: string;
  /** Every element of the full page. */
  elements: SnapshotElement[];
  /** Where the viewport is (from a viewport snapshot). */
  scroll: { y: number; below_px: number; above_px: number };
  /** The DONE message or the ASK_USER question. */
  message: string;
  /** What each action of the session did, in order ("Clicked …", "Went back to …"): proves the path taken. */
  actions: string[];
}

/** The step budget each task's browse gets. */
export const TASK_MAX_STEPS = 12;

/** The part of a session's driver a final state is read from. */
interface PageReader {
  url(): string;
  snapshot(options?: Partial<SnapshotOptions>): Promise<Snapshot>;
}

/** The part of a session a final state is read from: its page and its step history. */
interface SessionReader {
  driver: PageReader;
  conversation: { history: StepRecord[] };
}

/** Reads the page a task ended on, and what the agent did on the way, as its check expects it. */
export async function finalState(session: SessionReader, message: string): Promise<FinalState> {
  const { driver } = session;
  const full = await driver.snapshot({ full_page: true });
  const view = await driver.snapshot();
  const actions = session.conversation.history.flatMap((step) => step.actions.map((a) => a.message));
  return { url: driver.url(), text: full.text, elements: full.elements, scroll: view.scroll, message, actions };
}

/** One task for the built-in planner: a fixture page, an instruction in words, and a check of the end state. */
export interface BuiltinTask {
  name: string;
  /** Path on the fixture site to start from, e.g. "/form.html". */
  page: string;
  /** The instruction; `{{ORIGIN}}` stands for the fixture site's origin. */
  instruction: string;
  expect: 'DONE' | 'ASK_USER';
  check: (state: FinalState) => boolean;
}

const byName = (s: FinalState, name: string) => s.elements.find((e) => e.name === name || e.text === name);
const value = (s: FinalState, name: string) => byName(s, name)?.attributes.value;
const checked = (s: FinalState, name: string) => byName(s, name)?.states.checked;
const selected = (s: FinalState, name: string) =>
  s.elements.find((e) => e.attributes.name === name)?.options?.find((o) => o.selected)?.text;
const has = (s: FinalState, text: string) => s.text.includes(text);
const query = (s: FinalState) => new URL(s.url).searchParams;
const MODEL_HINT = (s: FinalState) => s.message.includes('OPENAI_API_KEY') && s.message.includes('TANDEM_MODEL_FAST');

/** The built-in planner's fixture tasks, in varied phrasing; reusable through the HTTP API. */
export const BUILTIN_TASKS: BuiltinTask[] = [
  // Forms
  {
    name: 'types into two fields and sends the form',
    page: '/form.html',
    instruction: 'Type Ada Lovelace into the Name field, enter ada@example.com in Email, then click Send',
    expect: 'DONE',
    check: (s) =>
      s.url.includes('/echo') && query(s).get('name') === 'Ada Lovelace' && query(s).get('email') === 'ada@example.com',
  },
  {
    name: 'fills a form given as field-value pairs and submits it',
    page: '/form.html',
    instruction: 'fill in the form: name Grace, email grace@navy.mil and submit it',
    expect: 'DONE',
    check: (s) => query(s).get('name') === 'Grace' && query(s).get('email') === 'grace@navy.mil',
  },
  {
    name: 'logs in with "log in as … with password …"',
    page: '/login.html',
    instruction: 'log in as ada@example.com with password correct-horse',
    expect: 'DONE',
    check: (s) => has(s, 'Signed in as ada@example.com'),
  },
  {
    name: 'fills username and password, ticks a box and presses the button',
    page: '/login.html',
    instruction:
      'Please enter the email ada@example.com and the password correct-horse, tick Keep me signed in, then press the Sign in button',
    expect: 'DONE',
    check: (s) => has(s, 'Signed in as ada@example.com'),
  },
  {
    name: 'signs in with "username … and password …"',
    page: '/login.html',
    instruction: 'sign in with username grace@example.com and password "correct-horse"',
    expect: 'DONE',
    check: (s) => has(s, 'Signed in as grace@example.com'),
  },
  {
    name: 'logs in with "log me in with X and Y"',
    page: '/login.html',
    instruction: 'Log me in with ada@example.com and correct-horse',
    expect: 'DONE',
    check: (s) => has(s, 'Signed in as ada@example.com'),
  },
  {
    name: 'follows a link named in quotes',
    page: '/login.html',
    instruction: "Click 'Forgot your password?'",
    expect: 'DONE',
    check: (s) => s.url.endsWith('#forgot'),
  },
  {
    name: 'selects an option of a native select',
    page: '/inputs.html',
    instruction: 'Select Mexico from the Country dropdown',
    expect: 'DONE',
    check: (s) => selected(s, 'country') === 'Mexico',
  },
  {
    name: 'checks one box and unchecks another',
    page: '/inputs.html',
    instruction: "check 'I accept the terms' and uncheck Send me the newsletter",
    expect: 'DONE',
    check: (s) => checked(s, 'I accept the terms') === true && checked(s, 'Send me the newsletter') === false,
  },
  {
    name: 'chooses a radio button by its label',
    page: '/inputs.html',
    instruction: 'Choose the Pro plan',
    expect: 'DONE',
    check: (s) => checked(s, 'Pro plan') === true && checked(s, 'Free plan') === false,
  },
  {
    name: 'types a number and a quoted text into a textarea',
    page: '/inputs.html',
    instruction: "type 42 into Age and write 'I like engines' in the Bio",
    expect: 'DONE',
    check: (s) => value(s, 'Age') === '42' && value(s, 'Bio') === 'I like engines',
  },
  {
    name: 'sets a field "to" a value',
    page: '/inputs.html',
    instruction: 'set the phone to +1 555 0199',
    expect: 'DONE',
    check: (s) => value(s, 'Phone') === '+1 555 0199',
  },
  {
    name: 'enters a value "as" a field',
    page: '/inputs.html',
    instruction: 'Enter Ada Lovelace as the full name, thanks',
    expect: 'DONE',
    check: (s) => value(s, 'Full name') === 'Ada Lovelace',
  },
  {
    name: 'clears a field',
    page: '/inputs.html',
    instruction: 'clear the email field',
    expect: 'DONE',
    check: (s) => value(s, 'Email') === '',
  },
  {
    name: 'fills a whole sign-up form and submits it',
    page: '/signup.html',
    instruction:
      'Enter the username neo, the email address neo@example.com and the password Zion-101, type "Zion-101" into Confirm password, choose Japan as the country, agree to the terms and conditions, then click Create account',
    expect: 'DONE',
    check: (s) => {
      const q = query(s);
      return (
        q.get('username') === 'neo' &&
        q.get('email') === 'neo@example.com' &&
        q.get('password') === 'Zion-101' &&
        q.get('confirm') === 'Zion-101' &&
        q.get('country') === 'jp' &&
        q.get('terms') === 'on'
      );
    },
  },
  // Custom dropdowns
  {
    name: 'opens a div-based dropdown and clicks the option',
    page: '/dropdown.html',
    instruction: 'choose Express from the speed dropdown',
    expect: 'DONE',
    check: (s) => has(s, 'Speed: express'),
  },
  {
    name: 'picks from an ARIA combobox whose options render late',
    page: '/dropdown.html',
    instruction: 'Pick UPS from the carrier list',
    expect: 'DONE',
    check: (s) => has(s, 'Carrier: UPS'),
  },
  {
    name: 'uses two custom dropdowns in one instruction',
    page: '/dropdown.html',
    instruction: 'select Overnight in the speed menu, then pick DHL from the carrier dropdown',
    expect: 'DONE',
    check: (s) => has(s, 'Speed: overnight · Carrier: DHL'),
  },
  {
    name: 'opens two custom dropdowns named in one "X in A and Y in B" clause',
    page: '/dropdown.html',
    instruction: 'choose Express in the speed dropdown and UPS in the carrier list',
    expect: 'DONE',
    check: (s) => has(s, 'Speed: express · Carrier: UPS'),
  },
  // Tabs, sections, menus
  {
    name: 'opens a tab',
    page: '/tabs.html',
    instruction: 'open the Specifications tab',
    expect: 'DONE',
    check: (s) => byName(s, 'Specifications')?.states.selected === true && has(s, 'Capacity: 1.7 litres'),
  },
  {
    name: 'switches tab and answers a question from the new panel',
    page: '/tabs.html',
    instruction: 'Switch to the Specifications tab. What is the power?',
    expect: 'DONE',
    check: (s) => s.message.includes('2200 W'),
  },
  {
    name: 'clicks a tab then a button inside it',
    page: '/tabs.html',
    instruction: 'click on Reviews then click Write a review',
    expect: 'DONE',
    // The review form only shows once the button was really pressed.
    check: (s) =>
      byName(s, 'Reviews')?.states.selected === true &&
      has(s, 'Tell us what you think of the Acme Kettle.') &&
      s.elements.some((e) => e.tag === 'textarea' && e.attributes.name === 'review'),
  },
  {
    name: 'expands an accordion section',
    page: '/collapsible.html',
    instruction: 'expand the Warranty section',
    expect: 'DONE',
    check: (s) => byName(s, 'Warranty')?.states.expanded === true && has(s, 'Two years on parts and labour'),
  },
  {
    name: 'collapses one section and expands a details element',
    page: '/collapsible.html',
    instruction: "Collapse Care instructions and expand 'How long does shipping take?'",
    expect: 'DONE',
    check: (s) =>
      byName(s, 'Care instructions')?.states.expanded === false &&
      byName(s, 'How long does shipping take?')?.states.expanded === true,
  },
  {
    name: 'opens a question and follows the link it reveals',
    page: '/collapsible.html',
    instruction: 'open the shipping question, then click Shipping options',
    expect: 'DONE',
    check: (s) => s.url.endsWith('/dropdown.html'),
  },
  {
    name: 'opens a menu and clicks a menu item',
    page: '/settings.html',
    instruction: 'Open the File menu and click Rename',
    expect: 'DONE',
    check: (s) => has(s, 'Last menu action: Rename'),
  },
  {
    name: 'turns on a switch',
    page: '/settings.html',
    instruction: 'turn on dark mode',
    expect: 'DONE',
    check: (s) => byName(s, 'Dark mode')?.states.checked === true,
  },
  {
    name: 'ticks several boxes, unticks one and saves',
    page: '/settings.html',
    instruction: 'Check SMS alerts, Push notifications and Weekly digest, untick Email alerts, then save the settings',
    expect: 'DONE',
    check: (s) => has(s, 'alerts=sms_alerts,push,digest;'),
  },
  {
    name: 'unticks all the boxes and saves',
    page: '/settings.html',
    instruction: 'untick all the boxes, then hit Save settings',
    expect: 'DONE',
    check: (s) => has(s, 'alerts=;'),
  },
  {
    name: 'changes a name, a language and a plan, then saves',
    page: '/settings.html',
    instruction: 'Change the display name to Ada, set the language to Deutsch, choose Team and click Save settings',
    expect: 'DONE',
    check: (s) => has(s, 'Saved: name=Ada;') && has(s, 'language=Deutsch;') && has(s, 'plan=team;'),
  },
  {
    name: 'fills a field "with" a value and hits a button',
    page: '/settings.html',
    instruction: 'Could you please fill in the username with adal and hit Save settings',
    expect: 'DONE',
    check: (s) => has(s, 'user=adal;'),
  },
  // Shop: cards, table, search
  {
    name: 'adds a product to the cart',
    page: '/cards.html',
    instruction: 'add the Bolt Drill to the cart',
    expect: 'DONE',
    check: (s) => has(s, 'Cart: 1 items'),
  },
  {
    name: 'clicks two buttons in a row',
    page: '/cards.html',
    instruction: 'click Add Acme Kettle to cart, then click "Add Echo Headphones to cart"',
    expect: 'DONE',
    check: (s) => has(s, 'Cart: 2 items'),
  },
  {
    name: 'answers the price of a product',
    page: '/cards.html',
    instruction: 'what is the price of the Bolt Drill?',
    expect: 'DONE',
    check: (s) => s.message.includes('$89.99'),
  },
  {
    name: 'answers "how much does … cost"',
    page: '/cards.html',
    instruction: 'How much does the Echo Headphones cost?',
    expect: 'DONE',
    check: (s) => s.message.includes('$129.00'),
  },
  {
    name: 'answers the rating of a product',
    page: '/cards.html',
    instruction: "What's the rating of Calm Lamp",
    expect: 'DONE',
    check: (s) => s.message.includes('4.8'),
  },
  {
    name: 'opens a product link',
    page: '/cards.html',
    instruction: 'Open Dune Backpack',
    expect: 'DONE',
    check: (s) => s.url.endsWith('item=dune-backpack'),
  },
  {
    name: 'answers a stock count from a table',
    page: '/table.html',
    instruction: 'How many Bolt Saws are in stock?',
    expect: 'DONE',
    check: (s) => /\b7\b/.test(s.message),
  },
  {
    name: 'answers a price from a table',
    page: '/table.html',
    instruction: 'Tell me the price of Calm Rug',
    expect: 'DONE',
    check: (s) => s.message.includes('$149.00'),
  },
  {
    name: 'clicks a pagination link',
    page: '/table.html',
    instruction: 'click Next',
    expect: 'DONE',
    check: (s) => s.url.endsWith('/table.html?page=2'),
  },
  {
    name: 'matches a link by part of its text',
    page: '/table.html',
    instruction: 'view the Bolt Drill',
    expect: 'DONE',
    check: (s) => s.url.endsWith('/cards.html#bolt-drill'),
  },
  {
    name: 'searches for something',
    page: '/search.html',
    instruction: 'search for headphones',
    expect: 'DONE',
    check: (s) => query(s).get('q') === 'headphones' && has(s, '3 results'),
  },
  {
    name: 'searches and opens the first result',
    page: '/search.html',
    instruction: "Search the shop for 'earbuds' and open the first result",
    expect: 'DONE',
    check: (s) => s.url.endsWith('item=echo-earbuds'),
  },
  {
    name: 'searches, then sorts with a native select',
    page: '/search.html',
    instruction: 'look up headphones then select Price: high to low from Sort by',
    expect: 'DONE',
    check: (s) =>
      s.text.indexOf('Echo Headphones') < s.text.indexOf('Echo Earbuds') &&
      selected(s, 'sort') === 'Price: high to low',
  },
  {
    name: 'finds a product and adds it to the cart',
    page: '/search.html',
    instruction: 'find kettle and add Acme Kettle to the cart',
    expect: 'DONE',
    check: (s) => has(s, 'Cart: 1 items'),
  },
  // Pages, keys, scrolling, waiting
  {
    name: 'opens a URL and clicks a tab there',
    page: '/index.html',
    instruction: 'go to {{ORIGIN}}/tabs.html and click Reviews',
    expect: 'DONE',
    check: (s) => s.url.endsWith('/tabs.html') && byName(s, 'Reviews')?.states.selected === true,
  },
  {
    name: 'opens a URL and answers a question there',
    page: '/index.html',
    instruction: 'Open {{ORIGIN}}/cards.html and tell me the price of Fern Planter',
    expect: 'DONE',
    check: (s) => s.url.endsWith('/cards.html') && s.message.includes('$18.50'),
  },
  {
    name: 'visits a path, then logs in',
    page: '/index.html',
    instruction: 'visit /login.html, then log in as kim@example.com with password correct-horse',
    expect: 'DONE',
    check: (s) => has(s, 'Signed in as kim@example.com'),
  },
  {
    name: 'follows a link and goes back',
    page: '/index.html',
    instruction: 'open the Form page, then go back',
    expect: 'DONE',
    // Ending where it started proves nothing by itself: the actions must show the visit and the return.
    check: (s) =>
      s.url.endsWith('/index.html') &&
      s.actions.some((a) => a.includes('/form.html')) &&
      s.actions.some((a) => /^Went back to .*\/index\.html\.$/.test(a)),
  },
  {
    name: 'types into a field and presses Enter',
    page: '/events.html',
    instruction: 'type shoes in the search box and press enter',
    expect: 'DONE',
    check: (s) => has(s, 'trusted keys: shoes'),
  },
  {
    name: 'clicks a button whose name starts with a verb',
    page: '/events.html',
    instruction: 'Click Check input',
    expect: 'DONE',
    check: (s) => has(s, 'trusted click'),
  },
  {
    name: 'opens a modal and presses Escape',
    page: '/modal.html',
    instruction: 'click Delete account, then press Escape',
    expect: 'DONE',
    check: (s) => has(s, 'Dialog answer: dismissed'),
  },
  {
    name: 'closes a dialog that has no close button with Escape',
    page: '/modal.html',
    instruction: 'click Delete account, then close the dialog',
    expect: 'DONE',
    check: (s) => has(s, 'Dialog answer: dismissed'),
  },
  {
    name: 'opens an overlay and accepts it',
    page: '/modal.html',
    instruction: 'Show cookie notice then accept cookies',
    expect: 'DONE',
    check: (s) => has(s, 'Cookies accepted'),
  },
  {
    name: 'chooses a button in a native dialog',
    page: '/modal.html',
    instruction: 'click Delete account and choose Delete forever',
    expect: 'DONE',
    check: (s) => has(s, 'Dialog answer: delete'),
  },
  {
    name: 'sets a select by its label',
    page: '/modal.html',
    instruction: 'Set the frequency to Monthly',
    expect: 'DONE',
    check: (s) => selected(s, 'frequency') === 'Monthly',
  },
  {
    name: 'scrolls to the bottom',
    page: '/long.html',
    instruction: 'scroll to the bottom of the page',
    expect: 'DONE',
    check: (s) => s.scroll.below_px <= 1,
  },
  {
    name: 'scrolls down by a number of pages',
    page: '/long.html',
    instruction: 'scroll down twice',
    expect: 'DONE',
    check: (s) => s.scroll.y > 1000 && s.scroll.y < 2400,
  },
  {
    name: 'scrolls down, then back up',
    page: '/long.html',
    instruction: 'scroll down 3 pages, then scroll up one page',
    expect: 'DONE',
    check: (s) => s.scroll.y > 1000 && s.scroll.y < 2000,
  },
  {
    name: 'scrolls to find a button below the viewport',
    page: '/long.html',
    instruction: 'Click Mark section 5 as read',
    expect: 'DONE',
    check: (s) => has(s, 'Section 5 read'),
  },
  {
    name: 'scrolls to the bottom and clicks there',
    page: '/long.html',
    instruction: 'jump to the end of the page, then click "Mark section 40 as read"',
    expect: 'DONE',
    check: (s) => has(s, 'Section 40 read'),
  },
  {
    name: 'waits for late content, then clicks what it brought',
    page: '/delayed.html',
    instruction: 'wait for Your orders are ready, then click Load more orders and click Track order 1004',
    expect: 'DONE',
    check: (s) => has(s, 'Order #1004'),
  },
  {
    name: 'clicks a button that appears late without being told to wait',
    page: '/delayed.html?ms=600',
    instruction: 'click Track order 1002',
    expect: 'DONE',
    check: (s) => has(s, 'Order #1002'),
  },
  // Targets by role, kind, ordinal and neighbouring label, in widgets nothing labels for assistive technology
  {
    name: 'fills fields named only by the text beside them',
    page: '/labels.html',
    instruction:
      'type Lima into Home city, enter 1234 as the postcode, type ada into the username, type 42 into the shoe size field and check Send me the newsletter, then click Save',
    expect: 'DONE',
    check: (s) =>
      query(s).get('f1') === 'Lima' &&
      query(s).get('f5') === '1234' &&
      query(s).get('f7') === 'ada' &&
      query(s).get('f13') === '42' &&
      query(s).get('f14') === 'on',
  },
  {
    name: 'opens collapsed folders of a tree to find a file',
    page: '/files.html',
    instruction: 'Navigate through the folders. Find and click on the file named "Summary.pdf".',
    expect: 'DONE',
    check: (s) => has(s, 'Opened Summary.pdf'),
  },
  {
    name: 'follows a nested menu path',
    page: '/files.html',
    instruction: 'open File > Export > As PDF',
    expect: 'DONE',
    check: (s) => has(s, 'Exported as PDF'),
  },
  {
    name: 'finds a row in a scrolling list and clicks the icon in it',
    page: '/files.html',
    instruction: 'Find the message from Frances and click the trash icon to delete it.',
    expect: 'DONE',
    check: (s) => has(s, 'Deleted the message from Frances'),
  },
  {
    name: 'moves a slider with the keyboard to a value',
    page: '/widgets.html',
    instruction: 'set the volume slider to 7, then click Save',
    expect: 'DONE',
    check: (s) => has(s, 'Saved volume=7'),
  },
  {
    name: 'types dates and times the way people write them into date and time inputs',
    page: '/widgets.html',
    instruction: 'Enter 03/14/2025 as the departure date, set the arrival time to 4:30 PM and click Save',
    expect: 'DONE',
    check: (s) => has(s, 'departure=2025-03-14 arrival=16:30'),
  },
  {
    name: 'picks the suggestion that fits a described value, then sends it',
    page: '/widgets.html',
    instruction: 'Enter a country that starts with "Par"',
    expect: 'DONE',
    check: (s) => has(s, 'country=Paraguay'),
  },
  {
    name: 'puts the focus in a field without clicking it',
    page: '/widgets.html',
    instruction: 'Focus on the Nickname field',
    expect: 'DONE',
    check: (s) => has(s, 'Nickname focused'),
  },
  {
    name: 'closes a dialog with its × button',
    page: '/widgets.html',
    instruction: 'Close the dialog by clicking the "x".',
    expect: 'DONE',
    check: (s) => !has(s, 'Subscribe to our newsletter'),
  },
  {
    name: 'asks for a value instead of typing vague words',
    page: '/widgets.html',
    instruction: 'fill the nickname with something sensible',
    expect: 'ASK_USER',
    check: (s) =>
      s.message.includes('Which text') && s.elements.find((e) => e.name === 'Nickname')?.attributes.value === '',
  },
  {
    name: 'counts results across pages to click the nth one',
    page: '/results.html',
    instruction: 'Use the textbox to enter "novels" and press "Search", then find and click the 8th search result',
    expect: 'DONE',
    check: (s) => has(s, 'Picked result 8: Lolita'),
  },
  {
    name: 'spreads a search over a form of named fields',
    page: '/results.html',
    instruction: 'Search for mystery books by Christie from 1934',
    expect: 'DONE',
    check: (s) => has(s, 'Advanced: author=Christie year=1934 genre=mystery'),
  },
  {
    name: 'clicks the only button when told "the button"',
    page: '/popup.html',
    instruction: 'Click the button.',
    expect: 'DONE',
    check: (s) => s.actions.some((a) => a.startsWith('Clicked')),
  },
  {
    name: 'asks which one when "the button" could be several',
    page: '/form.html',
    instruction: 'type Ada into the text field',
    expect: 'ASK_USER',
    check: (s) => s.message.includes('which text field') && s.message.includes('"Name"'),
  },
  // What it cannot do: ASK_USER, saying so and how to configure a model
  {
    name: 'asks about a task it cannot understand',
    page: '/index.html',
    instruction: 'Book me a flight to Paris for next Tuesday',
    expect: 'ASK_USER',
    check: (s) => s.message.includes('could not understand') && MODEL_HINT(s),
  },
  {
    name: 'asks about an unknown verb',
    page: '/tabs.html',
    instruction: 'Summarize the reviews in three bullet points',
    expect: 'ASK_USER',
    check: (s) => s.message.includes('Summarize the reviews') && MODEL_HINT(s),
  },
  {
    name: 'asks about gibberish',
    page: '/form.html',
    instruction: 'asdf qwerty zxcv',
    expect: 'ASK_USER',
    check: (s) => s.message.includes('asdf qwerty zxcv') && MODEL_HINT(s),
  },
  {
    name: 'asks before acting when one part of the chain is not understood',
    page: '/index.html',
    instruction: 'open the Form page, then dance a little jig',
    expect: 'ASK_USER',
    check: (s) => s.message.includes('dance a little jig') && s.url.endsWith('/index.html'),
  },
  {
    name: 'asks when the target is not on the page',
    page: '/form.html',
    instruction: 'click the Purple Unicorn button',
    expect: 'ASK_USER',
    check: (s) => s.message.includes('could not find') && s.message.includes('Purple Unicorn') && MODEL_HINT(s),
  },
];
