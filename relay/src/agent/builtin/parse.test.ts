import { describe, expect, it } from 'vitest';
import { parseInstruction } from './parse';

/** [instruction, the sub-steps it must parse into, compared with toMatchObject (so partial)]. */
const CASES: [string, Record<string, unknown>[]][] = [
  // Navigation
  ['open example.com', [{ kind: 'navigate', url: 'example.com' }]],
  ['Go to https://shop.test/login.html please', [{ kind: 'navigate', url: 'https://shop.test/login.html' }]],
  ['visit the page /tabs.html', [{ kind: 'navigate', url: '/tabs.html' }]],
  ['navigate to www.example.org.', [{ kind: 'navigate', url: 'www.example.org' }]],
  ['take me to localhost:3000/admin', [{ kind: 'navigate', url: 'localhost:3000/admin' }]],
  ['go back', [{ kind: 'back' }]],
  ['return to the previous page', [{ kind: 'back' }]],
  ['press the back button', [{ kind: 'back' }]],
  ['go forward', [{ kind: 'forward' }]],
  // Clicks
  ['click "Sign in"', [{ kind: 'click', target: { text: 'Sign in' } }]],
  ['Click on the Send button', [{ kind: 'click', target: { text: 'Send', kind: 'button' } }]],
  ['tap the Reviews tab', [{ kind: 'click', target: { text: 'Reviews', kind: 'tab' } }]],
  ["press the 'Delete forever' button", [{ kind: 'click', target: { text: 'Delete forever', kind: 'button' } }]],
  ['hit Save settings', [{ kind: 'click', target: { text: 'Save settings' } }]],
  [
    'double-click the Rename menu item',
    [{ kind: 'click', target: { text: 'Rename', kind: 'menuitem' }, double: true }],
  ],
  ['open the second result', [{ kind: 'click', target: { text: '', kind: 'result', ordinal: 2 } }]],
  ['click the last link', [{ kind: 'click', target: { text: '', kind: 'link', ordinal: -1 } }]],
  [
    'click the second Add to cart button',
    [{ kind: 'click', target: { text: 'Add to cart', kind: 'button', ordinal: 2 } }],
  ],
  [
    'click the link called Forgot your password?',
    [{ kind: 'click', target: { text: 'Forgot your password', kind: 'link' } }],
  ],
  ['switch to the Specifications tab', [{ kind: 'click', target: { text: 'Specifications', kind: 'tab' } }]],
  ['open the Form page', [{ kind: 'click', target: { text: 'Form', kind: 'link' } }]],
  [
    'click A, B and C',
    [
      { kind: 'click', target: { text: 'A' } },
      { kind: 'click', target: { text: 'B' } },
      { kind: 'click', target: { text: 'C' } },
    ],
  ],
  ['add the Bolt Drill to the cart', [{ kind: 'click', target: { text: 'Add Bolt Drill to cart' } }]],
  ['accept the cookies', [{ kind: 'click', target: { text: 'accept cookies' }, ensureChecked: true }]],
  ['save the settings', [{ kind: 'click', target: { text: 'save the settings' }, strict: true }]],
  ['hover over the File menu', [{ kind: 'hover', target: { text: 'File', kind: 'dropdown' } }]],
  // Typing
  ['type hello into the search box', [{ kind: 'fill', entry: { value: 'hello', field: 'search' } }]],
  ['Type "Hello, world" in Bio', [{ kind: 'fill', entry: { value: 'Hello, world', field: 'Bio' } }]],
  ['enter Ada Lovelace as the full name', [{ kind: 'fill', entry: { value: 'Ada Lovelace', field: 'full name' } }]],
  ['fill the name with Ada', [{ kind: 'fill', entry: { value: 'Ada', field: 'name' } }]],
  ['fill in Email with ada@example.com', [{ kind: 'fill', entry: { value: 'ada@example.com', field: 'Email' } }]],
  ['write "I like engines" in the Bio field', [{ kind: 'fill', entry: { value: 'I like engines', field: 'Bio' } }]],
  ['put 42 in the age box', [{ kind: 'fill', entry: { value: '42', field: 'age' } }]],
  ['type hello', [{ kind: 'fill', entry: { value: 'hello' } }]],
  ["enter the username 'admin'", [{ kind: 'fill', entry: { value: 'admin', field: 'username' } }]],
  [
    'enter the username admin and the password secret',
    [
      { kind: 'fill', entry: { raw: 'username admin' } },
      { kind: 'fill', entry: { raw: 'password secret' } },
    ],
  ],
  [
    'fill in the form: name Grace, email grace@navy.mil',
    [
      { kind: 'fill', entry: { raw: 'name Grace' } },
      { kind: 'fill', entry: { raw: 'email grace@navy.mil' } },
    ],
  ],
  ['set the country to Mexico', [{ kind: 'fill', entry: { value: 'Mexico', field: 'country' } }]],
  ['change the display name to Ada', [{ kind: 'fill', entry: { value: 'Ada', field: 'display name' } }]],
  ['clear the search field', [{ kind: 'fill', entry: { value: '', field: 'search' } }]],
  // Choices
  ['select Mexico from the Country dropdown', [{ kind: 'select', option: 'Mexico', field: 'Country' }]],
  ['choose Express as the speed', [{ kind: 'select', option: 'Express', field: 'speed' }]],
  [
    'pick "Price: high to low" in the Sort by list',
    [{ kind: 'select', option: 'Price: high to low', field: 'Sort by' }],
  ],
  ['choose the Pro plan', [{ kind: 'select', option: 'Pro plan' }]],
  ['select the Reviews tab', [{ kind: 'click', target: { text: 'Reviews', kind: 'tab' } }]],
  ['select the newsletter checkbox', [{ kind: 'check', target: { text: 'newsletter' }, checked: true }]],
  [
    'check Email alerts, SMS alerts and Weekly digest',
    [
      { kind: 'check', target: { text: 'Email alerts' }, checked: true },
      { kind: 'check', target: { text: 'SMS alerts' }, checked: true },
      { kind: 'check', target: { text: 'Weekly digest' }, checked: true },
    ],
  ],
  [
    'tick both boxes A and B',
    [
      { kind: 'check', target: { text: 'A', kind: 'checkbox' } },
      { kind: 'check', target: { text: 'B' } },
    ],
  ],
  ['uncheck the newsletter', [{ kind: 'check', target: { text: 'newsletter' }, checked: false }]],
  ['untick Remember me', [{ kind: 'check', target: { text: 'Remember me' }, checked: false }]],
  ['turn on dark mode', [{ kind: 'check', target: { text: 'dark mode' }, checked: true }]],
  ['turn dark mode off', [{ kind: 'check', target: { text: 'dark mode' }, checked: false }]],
  ['disable push notifications', [{ kind: 'check', target: { text: 'push notifications' }, checked: false }]],
  // Sections
  ['expand the Warranty section', [{ kind: 'expand', target: { text: 'Warranty' }, expanded: true }]],
  ['collapse Care instructions', [{ kind: 'expand', target: { text: 'Care instructions' }, expanded: false }]],
  ['open the shipping question', [{ kind: 'expand', target: { text: 'shipping' }, expanded: true }]],
  // Keys
  ['press Enter', [{ kind: 'press', key: 'Enter', modifiers: [] }]],
  ['hit return', [{ kind: 'press', key: 'Enter' }]],
  ['press the escape key', [{ kind: 'press', key: 'Escape' }]],
  ['press ctrl+a', [{ kind: 'press', key: 'a', modifiers: ['Control'] }]],
  ['press Shift Tab', [{ kind: 'press', key: 'Tab', modifiers: ['Shift'] }]],
  ['press the down arrow', [{ kind: 'press', key: 'ArrowDown' }]],
  ['submit the form', [{ kind: 'submit' }]],
  // Scrolling and waiting
  ['scroll down', [{ kind: 'scroll', direction: 'down', amount: 1 }]],
  ['scroll up a bit', [{ kind: 'scroll', direction: 'up', amount: 0.5 }]],
  ['scroll down 3 pages', [{ kind: 'scroll', direction: 'down', amount: 3 }]],
  ['scroll down twice', [{ kind: 'scroll', direction: 'down', amount: 2 }]],
  ['scroll to the bottom of the page', [{ kind: 'scroll', to: 'bottom' }]],
  ['go to the top of the page', [{ kind: 'scroll', to: 'top', direction: 'up' }]],
  ['jump to the end of the page', [{ kind: 'scroll', to: 'bottom' }]],
  ['scroll down to the footer', [{ kind: 'scroll', direction: 'down', target: 'footer' }]],
  ['page down', [{ kind: 'scroll', direction: 'down', amount: 1 }]],
  [
    'scroll to the bottom of the textarea',
    [{ kind: 'scroll', direction: 'down', amount: 10, to: 'bottom', within: { text: '', kind: 'field' } }],
  ],
  ['scroll to the bottom of the page', [{ kind: 'scroll', direction: 'down', amount: 10, to: 'bottom' }]],
  ['wait 2 seconds', [{ kind: 'wait', ms: 2000 }]],
  ['wait 500ms', [{ kind: 'wait', ms: 500 }]],
  ['wait for Your orders are ready', [{ kind: 'wait', text: 'Your orders are ready' }]],
  ['wait until "Saved" appears', [{ kind: 'wait', text: 'Saved' }]],
  ['wait for the page to load', [{ kind: 'wait', ms: 1000 }]],
  // Search and login
  ['search for headphones', [{ kind: 'search', query: 'headphones' }]],
  ["search the shop for 'red kettle'", [{ kind: 'search', query: 'red kettle' }]],
  ['look up wireless earbuds on the site', [{ kind: 'search', query: 'wireless earbuds' }]],
  ['find a kettle', [{ kind: 'search', query: 'kettle' }]],
  ['search for shoes and socks', [{ kind: 'search', query: 'shoes and socks' }]],
  // Messages: forward and reply are steps of their own, not words of a search
  [
    'Find the email by Ada and forward that email to Grace.',
    [
      { kind: 'click', target: { text: 'Ada' } },
      { kind: 'click', target: { text: 'forward' } },
      { kind: 'fill', entry: { value: 'Grace', field: 'to' } },
      { kind: 'click', target: { text: 'send' } },
    ],
  ],
  [
    'reply to them with the text "See you soon."',
    [
      { kind: 'click', target: { text: 'reply' } },
      { kind: 'fill', entry: { value: 'See you soon.' } },
      { kind: 'click', target: { text: 'send' } },
    ],
  ],
  // A value the page shows (perhaps only in a picture) is asked for, never typed as words
  ['Type the text below into the text field', [{ kind: 'fill', entry: { value: 'the text below', vague: true } }]],
  // Any script names an element
  ['Click on the "ヘルプ" button.', [{ kind: 'click', target: { text: 'ヘルプ', kind: 'button' } }]],
  [
    'log in as ada@example.com with password correct-horse',
    [{ kind: 'login', user: 'ada@example.com', password: 'correct-horse' }],
  ],
  ['sign in with username bob and password hunter2', [{ kind: 'login', user: 'bob', password: 'hunter2' }]],
  ['login as "grace" using the password "p@ss word"', [{ kind: 'login', user: 'grace', password: 'p@ss word' }]],
  ['Log into the site as kim, password: s3cret', [{ kind: 'login', user: 'kim', password: 's3cret' }]],
  // Questions
  ['what is the price of the Bolt Drill?', [{ kind: 'question', question: 'what is the price of the Bolt Drill' }]],
  ['How much does the kettle cost', [{ kind: 'question' }]],
  ['tell me the rating of Calm Lamp', [{ kind: 'question' }]],
  ['find the price of the Bolt Drill', [{ kind: 'question' }]],
  ['Is the Acme Toaster in stock?', [{ kind: 'question' }]],
  // More phrasings
  ['click the checkbox next to Remember me', [{ kind: 'click', target: { text: 'Remember me', kind: 'checkbox' } }]],
  [
    'choose Canada in Country and Mexico in the Region list',
    [
      { kind: 'select', option: 'Canada', field: 'Country' },
      { kind: 'select', option: 'Mexico', field: 'Region' },
    ],
  ],
  [
    'Log me in with ada@example.com and correct-horse',
    [{ kind: 'login', user: 'ada@example.com', password: 'correct-horse' }],
  ],
  ['uncheck all the boxes', [{ kind: 'check', target: { text: '', kind: 'checkbox', all: true }, checked: false }]],
  ['refresh the page', [{ kind: 'reload' }]],
  ['close the dialog', [{ kind: 'dismiss' }]],
  ['dismiss the cookie banner', [{ kind: 'dismiss' }]],
  [
    'press tab twice',
    [
      { kind: 'press', key: 'Tab' },
      { kind: 'press', key: 'Tab' },
    ],
  ],
  [
    'enter ada@example.com as email and correct-horse as password',
    [
      { kind: 'fill', entry: { value: 'ada@example.com', field: 'email' } },
      { kind: 'fill', entry: { value: 'correct-horse', field: 'password' } },
    ],
  ],
  [
    'fill out the email field with ada@example.com',
    [{ kind: 'fill', entry: { value: 'ada@example.com', field: 'email' } }],
  ],
  // What it does not know
  ['book a flight to Paris', [{ kind: 'click', strict: true }]],
  ['summarize this page', [{ kind: 'unknown', text: 'summarize this page' }]],
  ['asdf qwerty', [{ kind: 'unknown', text: 'asdf qwerty' }]],
];

describe('parseInstruction', () => {
  it.each(CASES)('parses %j', (instruction, expected) => {
    const steps = parseInstruction(instruction);
    expect(steps).toHaveLength(expected.length);
    expect(steps).toMatchObject(expected);
  });

  it('splits chains joined by "then", "and", commas and sentences, in order', () => {
    const steps = parseInstruction(
      'Please go to example.com, click "Sign in" and then type ada into Email. After that press Enter; finally scroll down',
    );
    expect(steps.map((s) => s.kind)).toEqual(['navigate', 'click', 'fill', 'press', 'scroll']);
  });

  it('keeps "and" inside quotes and URLs', () => {
    const steps = parseInstruction('click "Terms and Conditions" then open https://a.test/x?a=1&b=2');
    expect(steps).toMatchObject([
      { kind: 'click', target: { text: 'Terms and Conditions' } },
      { kind: 'navigate', url: 'https://a.test/x?a=1&b=2' },
    ]);
  });

  it('reads list items after a verb as more of the same action', () => {
    const steps = parseInstruction(
      'enter the email ada@example.com and the password correct-horse, tick Keep me signed in, then press Enter',
    );
    expect(steps.map((s) => s.kind)).toEqual(['fill', 'fill', 'check', 'press']);
  });

  it('drops polite words around clauses', () => {
    expect(parseInstruction('Could you please click Send for me, thanks')).toMatchObject([
      { kind: 'click', target: { text: 'Send' } },
    ]);
    expect(parseInstruction("I'd like you to scroll down")).toMatchObject([{ kind: 'scroll' }]);
  });

  it('separates a typed text from a following key press', () => {
    expect(parseInstruction('type shoes and hit enter')).toMatchObject([
      { kind: 'fill', entry: { value: 'shoes' } },
      { kind: 'press', key: 'Enter' },
    ]);
    expect(parseInstruction('type shoes and enter')).toMatchObject([{ kind: 'fill' }, { kind: 'press', key: 'Enter' }]);
  });

  it('marks the one part it cannot read as unknown, keeping the others', () => {
    expect(parseInstruction('open example.com then dance a jig').map((s) => s.kind)).toEqual(['navigate', 'unknown']);
  });

  it('returns nothing for an empty instruction', () => {
    expect(parseInstruction('  please ')).toEqual([]);
  });
});
