// End-to-end tests of the built page in Debian's Chromium, the way people
// use it: by accessible names, at a desktop, a tablet and a phone size, in
// light and dark, with an axe-core audit. Any console error or page error
// fails the test it happens in.
//
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ node tests/e2e/run.mjs
//   E2E_SCREENSHOTS=DIR   save a screenshot of every size and theme there
//   E2E_CHROMIUM=PATH     the browser (default /usr/bin/chromium)
//   E2E_ONLY=TEXT         run only the tests whose name contains TEXT
// Prints one line per test and closes with "e2e: N passed, M failed";
// exits 1 when any test failed.
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { register as registerExplore, registerGallery } from './explore.mjs';
import { register as registerProtocols, registerRun as registerProtocolRun } from './protocols.mjs';
import { register as registerStorage } from './storage.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const BASE = process.env.E2E_BASE_URL;
const SHOTS = process.env.E2E_SCREENSHOTS || '';
const ONLY = process.env.E2E_ONLY || '';
if (!BASE) {
  console.error('E2E_BASE_URL is not set (the address of the served release build)');
  process.exit(2);
}
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'tablet', width: 768, height: 1024 },
  { name: 'phone', width: 390, height: 844 },
];
const SCHEMES = ['light', 'dark'];
// Below this width the side panels are drawers behind buttons.
const DRAWER_BELOW = 1200;
const TIMEOUT = 30_000;

class Failure extends Error {}
function expect(cond, what) {
  if (!cond) throw new Failure(what);
}

/** A fresh page at `size` in `scheme`, collecting console and page errors. */
async function openPage(browser, size, scheme, locale = 'en-US', play = 'Play', initScript = null) {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    colorScheme: scheme,
    reducedMotion: 'reduce',
    locale,
  });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => errors.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
  await page.goto(BASE, { waitUntil: 'load' });
  await page.getByRole('button', { name: play, exact: true }).waitFor({ state: 'visible' });
  return { context, page, errors };
}

/** The axe-core audit of the page as it is: a list of `id (n nodes)`. */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) {
    await page.addScriptTag({ content: AXE_SOURCE });
  }
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1, 2).join(' ').trim()}`),
    }));
  });
  return result;
}

function describeViolations(vs) {
  return vs.map((v) => `${v.id} [${v.impact}] on ${v.nodes.length}: ${v.nodes.slice(0, 3).join(' | ')}`).join('\n    ');
}

async function expectNoAxeViolations(page, when) {
  const vs = await axeViolations(page);
  axeCounts.push({ when, count: vs.reduce((n, v) => n + v.nodes.length, 0), rules: vs.map((v) => v.id) });
  expect(vs.length === 0, `axe found ${vs.length} rule(s) violated ${when}:\n    ${describeViolations(vs)}`);
}

/** The page does not scroll sideways and `name`d controls are not covered. */
async function expectUsableLayout(page, size, playName = 'Play') {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  const play = page.getByRole('button', { name: playName, exact: true });
  const covered = await play.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit && (hit === el || el.contains(hit)) ? null : (hit ? hit.outerHTML.slice(0, 80) : 'nothing');
  });
  expect(covered === null, `Play is covered by ${covered}`);
  const diagram = await page.locator('.diagram-scroll').boundingBox();
  expect(diagram && diagram.width >= Math.min(size.width - 40, 600), `the diagram pane is only ${diagram?.width} px wide`);
  expect(diagram.height >= 300, `the diagram pane is only ${diagram.height} px tall`);
}

/** The first screen (nothing loaded): the "Start here" card's tour button
 * and its three scenario buttons are in view without scrolling and not
 * covered; the controls that cannot act are disabled; nothing scrolls
 * sideways. */
async function expectFirstScreen(page, size) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  const card = page.getByRole('region', { name: 'Start here', exact: true });
  await card.waitFor({ state: 'visible' });
  const starts = [
    ['the tour button', card.getByRole('button', { name: 'Start the lesson: without protocols, then with', exact: true })],
    ...['Graceful shutdown', 'Approve a plan', 'Reject a risky plan'].map((n) => [n, card.getByRole('button', { name: new RegExp(`^${n}`) })]),
  ];
  for (const [what, button] of starts) {
    const b = await button.boundingBox();
    expect(b && b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width && b.y + b.height <= size.height,
      `${what} is not in view without scrolling at ${size.width}x${size.height}: ${JSON.stringify(b)}`);
    const covered = await button.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit && (hit === el || el.contains(hit)) ? null : (hit ? hit.outerHTML.slice(0, 80) : 'nothing');
    });
    expect(covered === null, `${what} is covered by ${covered}`);
  }
  for (const name of ['Back', 'Play', 'Next', 'Stop']) {
    expect(await page.getByRole('button', { name, exact: true }).isDisabled(), `${name} is enabled with nothing loaded`);
  }
  expect(await page.getByRole('slider', { name: 'Scrub through events' }).isDisabled(), 'the scrubber is enabled with nothing loaded');
  expect(await page.getByRole('checkbox', { name: 'Follow latest' }).isDisabled(), 'Follow is enabled with nothing loaded');
}

const drawerToggle = (page, name) => page.getByRole('button', { name, exact: true });

/** On a narrow screen, opens the drawer named `name` (a no-op when wide). */
async function openDrawer(page, size, name) {
  if (size.width >= DRAWER_BELOW) return;
  const toggle = drawerToggle(page, name);
  expect((await toggle.getAttribute('aria-expanded')) === 'false', `${name} starts open`);
  await toggle.click();
  expect((await toggle.getAttribute('aria-expanded')) === 'true', `${name} did not open (aria-expanded)`);
}

async function closeDrawer(page, size, name) {
  if (size.width >= DRAWER_BELOW) return;
  const toggle = drawerToggle(page, name);
  if ((await toggle.getAttribute('aria-expanded')) === 'true') {
    await page.keyboard.press('Escape');
    expect((await toggle.getAttribute('aria-expanded')) === 'false', `Escape did not close ${name}`);
  }
}

/** Opens the engineer's tools (the setup column's Tools tab) with the
 * header's Tools button: one click on every screen (on a narrow one it opens
 * the setup drawer on that tab). */
async function openTools(page, size) {
  await page.locator('#tools-toggle').click();
  expect((await page.locator('#setup-tab-tools').getAttribute('aria-selected')) === 'true', 'the Tools button did not pick the Tools tab');
  if (size.width < DRAWER_BELOW) {
    expect((await page.locator('#setup-toggle').getAttribute('aria-expanded')) === 'true', 'the Tools button did not open the setup drawer');
  }
  await page.locator('section.explore').waitFor({ state: 'visible' });
}

/** "showing N of M events", from the diagram's accessible name. */
async function shownOf(page) {
  const label = await page.getByRole('img', { name: /^Sequence diagram/ }).getAttribute('aria-label');
  const m = /showing (\d+) of (\d+) events/.exec(label || '');
  expect(m, `the diagram's name does not say what it shows: ${label}`);
  return [Number(m[1]), Number(m[2])];
}

/** Runs the shutdown scenario at 4x (a Live run tells each event in turn:
 * about 7 s at 4x, 29 s at 1x) and waits for the team to go quiet. */
async function runShutdown(page, size) {
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
  await openDrawer(page, size, 'Setup');
  await page.locator('#setup').getByRole('button', { name: /^Graceful shutdown/ }).click();
  await closeDrawer(page, size, 'Setup');
  await runEnded(page);
}

/** Waits until the run on screen is over: Run enabled again, the trace has
 * events and every one of them is shown. */
async function runEnded(page) {
  await page.waitForFunction(() => {
    const run = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Run');
    const svg = document.querySelector('svg.diagram');
    const m = /showing (\d+) of (\d+) events/.exec(svg?.getAttribute('aria-label') || '');
    return run && !run.disabled && m && Number(m[2]) > 5 && m[1] === m[2];
  }, null, { timeout: 60_000 });
}

async function screenshot(page, size, scheme, what) {
  if (!SHOTS) return;
  await page.screenshot({ path: `${SHOTS}/${size.width}x${size.height}-${scheme}-${what}.png` });
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
const axeCounts = [];

for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height} ${scheme}`;

    test(`${tag}: the landing page fits the screen and has no axe violation`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await expectFirstScreen(page, size);
        await screenshot(page, size, scheme, 'landing');
        await expectNoAxeViolations(page, `on landing (${tag})`);
        return errors;
      } finally {
        await context.close();
      }
    });

    test(`${tag}: the shutdown scenario runs, Back and Next step, no axe violation after the run`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await runShutdown(page, size);
        const [shown, total] = await shownOf(page);
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        expect((await shownOf(page))[0] === shown - 1, 'Back did not step one event back');
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        expect((await shownOf(page))[0] === shown - 2, 'a second Back did not step back again');
        await page.getByRole('button', { name: 'Next', exact: true }).click();
        expect((await shownOf(page))[0] === shown - 1, 'Next did not step one event forward');
        await page.keyboard.press('End');
        expect((await shownOf(page)).join() === [total, total].join(), 'End did not go to the last event');
        // The shutdown ends alice's lifeline with a cross.
        await page.getByRole('img', { name: /^Sequence diagram/ }).locator('[aria-label="alice shut down"]').waitFor({ state: 'attached' });
        await expectUsableLayout(page, size);
        await screenshot(page, size, scheme, 'run');
        await expectNoAxeViolations(page, `after the shutdown run (${tag})`);
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

// A guided tour: it runs its scenario, shows each stop in a card under the
// caption box (the cursor on the stop's event), fits every screen, and ends.
for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: a guided tour steps through its stops in a card that fits the screen, no axe violation`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await openDrawer(page, size, 'Setup');
        await page.getByRole('button', { name: 'Tour: Two requests, answered out of order', exact: true }).click();
        const card = page.getByRole('region', { name: /^Tour: Two requests/ });
        await card.getByText(/^Stop 1 of \d+$/).waitFor({ state: 'visible', timeout: 60_000 });
        if (size.width < DRAWER_BELOW) {
          expect((await drawerToggle(page, 'Setup').getAttribute('aria-expanded')) === 'false', 'the setup drawer stays open over the tour');
        }
        const focused = await page.evaluate(() => document.activeElement?.id);
        expect(focused === 'tour-card', `starting a tour focused '${focused}', not the tour card`);
        const next = card.getByRole('button', { name: 'Next stop', exact: true });
        await next.click();
        await next.click();
        await card.getByText(/^Stop 3 of \d+$/).waitFor({ state: 'visible' });
        const title = await card.getByRole('heading', { level: 3 }).innerText();
        expect(title === 'An answer out of order', `the third stop is '${title}'`);
        // Next stop walks to its stop at the Speed setting (1x here).
        const at = Number(await card.getAttribute('data-cursor'));
        await page.waitForFunction((at) => {
          const m = /showing (\d+) of/.exec(document.querySelector('svg.diagram')?.getAttribute('aria-label') || '');
          return m && Number(m[1]) === at;
        }, at, { timeout: 30_000 });
        const [shown] = await shownOf(page);
        expect(shown === at, `the diagram shows ${shown} events, the stop is at ${at}`);
        const box = await card.boundingBox();
        expect(box && box.y >= 0 && box.y + box.height <= size.height && box.x + box.width <= size.width + 0.5, `the tour card is off screen: ${JSON.stringify(box)}`);
        await expectUsableLayout(page, size);
        await screenshot(page, size, scheme, 'tour');
        await expectNoAxeViolations(page, `with a tour card open (${tag})`);
        await card.getByRole('button', { name: 'End tour', exact: true }).click();
        await card.waitFor({ state: 'detached' });
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

// Nothing cut off (issue 31, item 3): on short screens and phones the
// caption and the tour's stop are whole or a More button shows the rest; no
// text of the diagram passes its right edge; the tour card never tells a
// stop before the diagram reaches it, and the tour walks to the run's last
// event; both ends of the stop's arrow are on screen; what was said under
// an arrow opens whole by click or keyboard, and the request detail shows
// the feedback.
const CUT_SIZES = [
  { name: 'hd', width: 1280, height: 720 },
  SIZES[2],
  { name: 'small phone', width: 360, height: 640 },
];

/** The paragraph `selector` shows its whole text, or its More button does. */
async function expectWhole(page, selector, what) {
  const el = page.locator(selector);
  if ((await el.count()) === 0) return;
  const cut = () => el.evaluate((p) => p.scrollHeight - p.clientHeight);
  if ((await cut()) <= 1) return;
  const more = page.locator(`button.more-toggle[aria-controls="${await el.getAttribute('id')}"]`);
  expect(await more.isVisible(), `${what} is cut by ${await cut()} px and no More button shows the rest`);
  expect((await more.getAttribute('aria-expanded')) === 'false', `${what}'s More button says it is open`);
  await more.click();
  expect((await more.getAttribute('aria-expanded')) === 'true', `More did not open ${what}`);
  const left = await cut();
  expect(left <= 1, `${what} is still cut by ${left} px after More`);
}

/** Texts of the diagram that reach past its drawing's right edge. */
async function textsPastTheEdge(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.diagram');
    const width = svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')]
      .map((t) => { const b = t.getBBox(); return { text: t.textContent, right: Math.round(b.x + b.width), width }; })
      .filter((t) => t.right > t.width + 0.5);
  });
}

/** Scrolls the diagram (which draws only the rows on screen) down from the
 *  top until `locator` is drawn, then brings it into view. */
async function scrollDiagramTo(page, locator) {
  const pane = page.locator('.diagram-scroll');
  for (let top = 0; ; top += 200) {
    const end = await pane.evaluate((el, top) => { el.scrollTop = top; return el.scrollTop + el.clientHeight >= el.scrollHeight - 1; }, top);
    // Two frames: the scroll is seen and the rows it brings are drawn.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    if ((await locator.count()) > 0 || end) break;
  }
  expect((await locator.count()) > 0, 'the diagram never draws what was looked for');
  await locator.scrollIntoViewIfNeeded();
}

/** The stop's arrow (the row of the event at the cursor, if an arrow) has
 *  both ends inside the diagram's pane. */
async function expectArrowOnScreen(page, at, what) {
  const ends = await page.evaluate((seq) => {
    const line = document.querySelector(`svg.diagram g.msg[data-seq="${seq}"] line`);
    if (!line) return null;
    const svg = line.ownerSVGElement;
    const pane = document.querySelector('.diagram-scroll').getBoundingClientRect();
    const m = svg.getScreenCTM();
    const x = (v) => v * m.a + m.e;
    return { x1: x(line.x1.baseVal.value), x2: x(line.x2.baseVal.value), left: pane.left, right: pane.right };
  }, at - 1);
  if (!ends) return;
  const inside = (x) => x >= ends.left - 1 && x <= ends.right + 1;
  expect(inside(ends.x1) && inside(ends.x2), `${what}: the arrow's ends ${Math.round(ends.x1)}..${Math.round(ends.x2)} are not both in the pane ${Math.round(ends.left)}..${Math.round(ends.right)}`);
}

for (const size of CUT_SIZES) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: the tour's stops and captions are read in full, its arrows on screen, the card follows the cursor to the run's last event`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await openDrawer(page, size, 'Setup');
        await page.getByRole('button', { name: 'Tour: Graceful shutdown', exact: true }).click();
        const card = page.getByRole('region', { name: /^Tour: Graceful shutdown/ });
        await card.getByText(/^Stop 1 of \d+$/).waitFor({ state: 'visible', timeout: 60_000 });
        const n = Number(/of (\d+)/.exec(await card.getByText(/^Stop 1 of \d+$/).innerText())[1]);
        const next = card.getByRole('button', { name: 'Next stop', exact: true });
        for (let i = 1; ; i++) {
          const at = Number(await card.getAttribute('data-cursor'));
          await page.waitForFunction((at) => /showing (\d+) of/.exec(document.querySelector('svg.diagram')?.getAttribute('aria-label') || '')?.[1] === String(at), at);
          await expectWhole(page, '#caption-text', `the caption at stop ${i}`);
          await expectWhole(page, '#tour-text', `stop ${i}`);
          await expectArrowOnScreen(page, at, `stop ${i}`);
          // The shutdown tour's stops are all between the lead and alice:
          // the lead's lifeline (and so its sticky head) stays on screen.
          const lead = await page.evaluate(() => {
            const line = document.querySelector('svg.diagram g.status-lead line.life');
            const pane = document.querySelector('.diagram-scroll').getBoundingClientRect();
            const x = line.x1.baseVal.value * line.ownerSVGElement.getScreenCTM().a + line.ownerSVGElement.getScreenCTM().e;
            return { x, left: pane.left, right: pane.right };
          });
          expect(lead.x >= lead.left && lead.x <= lead.right, `at stop ${i} the lead's lifeline (x ${Math.round(lead.x)}) is off the pane ${Math.round(lead.left)}..${Math.round(lead.right)}`);
          const past = await textsPastTheEdge(page);
          expect(past.length === 0, `at stop ${i} the diagram's text passes its right edge: ${JSON.stringify(past.slice(0, 3))}`);
          if (i === 2) await screenshot(page, size, scheme, 'tour-whole');
          if ((await next.getAttribute('aria-disabled')) === 'true') break;
          // While Next stop walks, the card keeps the stop it walks from:
          // the new stop's title shows only once the diagram is on it.
          const before = await card.getByRole('heading', { level: 3 }).innerText();
          await page.evaluate(() => {
            window.__tourSeen = [];
            const look = () => {
              const m = /showing (\d+) of/.exec(document.querySelector('svg.diagram')?.getAttribute('aria-label') || '');
              const title = document.querySelector('#tour-card h3')?.textContent || '';
              const cursor = document.querySelector('#tour-card')?.dataset.cursor;
              if (document.querySelector('#tour-card')) window.__tourSeen.push([title, m ? Number(m[1]) : -1, Number(cursor)]);
              if (window.__tourSeen.length < 2000) window.__tourRaf = requestAnimationFrame(look);
            };
            look();
          });
          await next.click();
          const target = Number(await card.getAttribute('data-cursor'));
          await page.waitForFunction((t) => /showing (\d+) of/.exec(document.querySelector('svg.diagram')?.getAttribute('aria-label') || '')?.[1] === String(t), target, { timeout: 30_000 });
          await page.waitForFunction((before) => document.querySelector('#tour-card h3')?.textContent !== before, before);
          const seen = await page.evaluate(() => { cancelAnimationFrame(window.__tourRaf); return window.__tourSeen; });
          const after = await card.getByRole('heading', { level: 3 }).innerText();
          const early = seen.filter(([title, shown]) => title === after && shown < target);
          expect(early.length === 0, `stop ${i + 1}'s text '${after}' showed at step ${early[0]?.[1]}, before the diagram reached step ${target}`);
        }
        const [shown, total] = await shownOf(page);
        expect(shown === total, `the tour ends at step ${shown} of ${total}`);
        const last = await card.getByRole('heading', { level: 3 }).innerText();
        expect(last === 'The run is over', `the last card is '${last}', not the end of the run (${n} stops)`);
        await expectWhole(page, '#tour-text', 'the last card');
        await screenshot(page, size, scheme, 'tour-end');
        await expectNoAxeViolations(page, `at the end of a tour (${tag})`);
        // Previous stop from the end goes back to the last stop.
        await card.getByRole('button', { name: 'Previous stop', exact: true }).click();
        await card.getByText(`Stop ${n} of ${n}`, { exact: true }).waitFor({ state: 'visible' });
        return errors;
      } finally {
        await context.close();
      }
    });

    test(`${tag}: what was said under an arrow opens whole by click and keyboard, the request detail shows the feedback, no text passes the diagram's edge`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        // A Live run tells each event in turn (about 53 s at 1x): 4x, as a user in a hurry would.
        await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
        await openDrawer(page, size, 'Setup');
        await page.locator('[data-scenario=reject-plan]').click();
        await closeDrawer(page, size, 'Setup');
        await page.waitForFunction(() => {
          const run = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Run');
          const m = /showing (\d+) of (\d+) events/.exec(document.querySelector('svg.diagram')?.getAttribute('aria-label') || '');
          return run && !run.disabled && m && Number(m[2]) > 5 && m[1] === m[2];
        }, null, { timeout: 60_000 });
        const past = await textsPastTheEdge(page);
        expect(past.length === 0, `the diagram's text passes its right edge: ${JSON.stringify(past.slice(0, 3))}`);
        // The feedback of the rejection, cut under its arrow, opens whole.
        const said = page.getByRole('button', { name: /^Read in full: feedback: / }).first();
        await scrollDiagramTo(page, said);
        const whole = (await said.getAttribute('aria-label')).replace(/^Read in full: feedback: /, '');
        await said.click();
        const dialog = page.getByRole('dialog', { name: /^feedback in request / });
        await dialog.waitFor({ state: 'visible' });
        const text = await dialog.locator('.said-card-text').innerText();
        expect(text === whole, `the card says '${text}', the arrow's whole feedback is '${whole}'`);
        expect(await page.evaluate(() => document.activeElement?.id) === 'said-card', 'the opened card is not focused');
        await screenshot(page, size, scheme, 'said');
        await expectNoAxeViolations(page, `with what was said opened (${tag})`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        // By keyboard: focus the plan's words, Enter opens them.
        const plan = page.getByRole('button', { name: /^Read in full: plan: / }).first();
        await scrollDiagramTo(page, plan);
        await plan.focus();
        await page.keyboard.press('Enter');
        await page.getByRole('dialog', { name: /^plan in request / }).waitFor({ state: 'visible' });
        await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
        // The request detail: the plan and the lead's feedback, whole.
        await openDrawer(page, size, 'Panels');
        const request = page.locator('.request-head', { hasText: 'plan' }).first();
        await request.scrollIntoViewIfNeeded();
        await request.click();
        const feedback = page.locator('.request-detail .said-feedback').first();
        await feedback.waitFor({ state: 'visible' });
        expect((await feedback.innerText()).startsWith('feedback: '), 'the request detail does not show the feedback');
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

// Issue 31 §6 and §3: the SVG of the frame at the cursor and of the whole
// run both download (the frame's arrows are those up to the cursor); a tool
// note cut short opens whole by click and by keyboard.
for (const [size, scheme] of [[SIZES[0], 'light'], [SIZES[2], 'dark']]) {
  const tag = `${size.width}x${size.height} ${scheme}`;
  test(`${tag}: the SVG of this frame and of the whole run both download; a tool note cut short opens whole by click and keyboard`, async (browser) => {
    const { context, page, errors } = await openPage(browser, size, scheme);
    try {
      await runShutdown(page, size);
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.keyboard.press('Home');
      expect((await shownOf(page))[0] === 0, 'Home did not go to the start');
      // The exports are in the Trace panel, among the engineer's tools.
      await openTools(page, size);
      const svgOf = async (name) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
        return [download.suggestedFilename(), readFileSync(await download.path(), 'utf8')];
      };
      const [frameName, frame] = await svgOf('Export SVG (this frame)');
      const [runName, run] = await svgOf('Export SVG (whole run)');
      const arrows = (doc) => doc.split('<g class="msg ').length - 1;
      expect(frameName === 'diagram.svg' && runName === 'diagram-run.svg', `downloaded as ${frameName} and ${runName}`);
      expect(frame.includes('<svg') && run.includes('<svg'), 'an export is not an SVG document');
      expect(arrows(frame) === 0 && arrows(run) === 2, `the frame at the start has ${arrows(frame)} arrows, the whole run ${arrows(run)} (the shutdown's two)`);
      await closeDrawer(page, size, 'Setup');
      await page.keyboard.press('End');
      // alice's answer is a tool call too long for its note: it opens whole.
      const note = page.getByRole('button', { name: /^Read in full: shutdown_response: / }).first();
      await scrollDiagramTo(page, note);
      const whole = (await note.getAttribute('aria-label')).replace(/^Read in full: shutdown_response: /, '');
      await note.click();
      const dialog = page.getByRole('dialog', { name: 'shutdown_response', exact: true });
      await dialog.waitFor({ state: 'visible' });
      const text = await dialog.locator('.said-card-text').innerText();
      expect(text === whole && text.includes('true'), `the card says '${text}', the note's whole call is '${whole}'`);
      await screenshot(page, size, scheme, 'tool-note-whole');
      await expectNoAxeViolations(page, `with a tool note opened (${tag})`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await note.focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'visible' });
      return errors;
    } finally {
      await context.close();
    }
  });
}

for (const scheme of SCHEMES) {
  const size = SIZES[2];
  test(`390x844 ${scheme}: the panels open as drawers with their buttons, fit the screen, and close`, async (browser) => {
    const { context, page, errors } = await openPage(browser, size, scheme);
    try {
      await runShutdown(page, size);
      // The right-hand panels: the request the scenario made, approved.
      await openDrawer(page, size, 'Panels');
      const requests = page.getByRole('heading', { name: 'Requests', exact: true });
      await requests.waitFor({ state: 'visible' });
      const drawer = page.getByRole('complementary', { name: 'Team and protocol' });
      const box = await drawer.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= size.width + 0.5, `the panels drawer is off screen: ${JSON.stringify(box)}`);
      expect(await drawer.getByText('approved').first().isVisible(), 'the shutdown request is not shown as approved');
      await screenshot(page, size, scheme, 'panels');
      await expectNoAxeViolations(page, `with the panels drawer open (390x844 ${scheme})`);
      await page.getByRole('button', { name: 'Close panels' }).click();
      expect((await drawerToggle(page, 'Panels').getAttribute('aria-expanded')) === 'false', 'Close panels did not close the drawer');
      expect(!(await requests.isVisible()), 'the closed drawer is still visible');
      // The setup drawer's Tools tab: every fault field is inside it, none clipped.
      await openTools(page, size);
      const setup = page.getByRole('complementary', { name: 'Run setup' });
      const setupBox = await setup.boundingBox();
      for (const name of ['Fault action', 'Fault delay in milliseconds', 'Fault message type', 'Fault sender', 'Fault recipient', 'Fault probability']) {
        const field = setup.getByLabel(name, { exact: true });
        await field.scrollIntoViewIfNeeded();
        const b = await field.boundingBox();
        expect(b && b.width >= 60 && b.x >= setupBox.x && b.x + b.width <= setupBox.x + setupBox.width + 0.5, `the field '${name}' is clipped: ${JSON.stringify(b)}`);
      }
      await screenshot(page, size, scheme, 'setup');
      await expectNoAxeViolations(page, `with the setup drawer open (390x844 ${scheme})`);
      await page.keyboard.press('Escape');
      expect((await drawerToggle(page, 'Setup').getAttribute('aria-expanded')) === 'false', 'Escape did not close the setup drawer');
      await expectUsableLayout(page, size);
      return errors;
    } finally {
      await context.close();
    }
  });
}

test('1440x900 light: skip links come first and reach the controls and the diagram', async (browser) => {
  const { context, page, errors } = await openPage(browser, SIZES[0], 'light');
  try {
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.textContent?.trim());
    expect(first === 'Skip to playback controls', `the first tab stop is '${first}'`);
    await page.keyboard.press('Enter');
    // From the controls, the first that can act with nothing loaded (Live;
    // Play waits for a run) is a few tab stops away.
    let stops = 0;
    for (; stops < 8; stops++) {
      await page.keyboard.press('Tab');
      const name = await page.evaluate(() => document.activeElement?.textContent?.trim());
      if (name === 'Live') break;
    }
    expect(stops < 8, 'the playback controls are not within 8 tab stops of the skip link');
    const count = await page.evaluate(() => {
      // Tab stops before the first screen's start button from the top of
      // the page, in document order.
      const all = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
        .filter((el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
      return all.findIndex((el) => el.classList.contains('start-tour'));
    });
    tabStopsBeforeStart.push(count);
    expect(count >= 0 && count <= 10, `${count} tab stops before the start button`);
    const skipDiagram = page.getByRole('link', { name: 'Skip to diagram' });
    await skipDiagram.focus();
    await page.keyboard.press('Enter');
    const focused = await page.evaluate(() => document.activeElement?.id);
    expect(focused === 'diagram', `Skip to diagram focused '${focused}'`);
    return errors;
  } finally {
    await context.close();
  }
});
const tabStopsBeforeStart = [];

for (const scheme of SCHEMES) {
  test(`768x1024 ${scheme}: ? opens the keyboard shortcuts dialog, which lists every key and closes with Escape`, async (browser) => {
    const { context, page, errors } = await openPage(browser, SIZES[1], scheme);
    try {
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await dialog.waitFor({ state: 'visible' });
      const text = await dialog.innerText();
      for (const key of ['Space', '←', '→', 'Home', 'End', '?']) {
        expect(text.includes(key), `the shortcuts dialog does not list ${key}`);
      }
      await screenshot(page, SIZES[1], scheme, 'shortcuts');
      await expectNoAxeViolations(page, `with the shortcuts dialog open (768x1024 ${scheme})`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // The button on screen opens it too.
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
      return errors;
    } finally {
      await context.close();
    }
  });
}

test('1440x900 dark: zoom in, zoom out and fit to width resize the diagram; lifeline heads stay on screen while it scrolls', async (browser) => {
  const size = SIZES[0];
  const { context, page, errors } = await openPage(browser, size, 'dark');
  try {
    await runShutdown(page, size);
    const svg = page.getByRole('img', { name: /^Sequence diagram/ });
    const width = async () => (await svg.boundingBox()).width;
    const w0 = await width();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const w1 = await width();
    expect(w1 > w0 * 1.1, `Zoom in did not enlarge the diagram (${w0} -> ${w1})`);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    const w2 = await width();
    expect(w2 < w0 * 0.95, `Zoom out did not shrink the diagram (${w0} -> ${w2})`);
    await page.getByRole('button', { name: 'Fit to width' }).click();
    const pane = await page.locator('.diagram-scroll').boundingBox();
    const w3 = await width();
    expect(w3 <= pane.width + 0.5 && w3 >= pane.width * 0.8, `Fit to width gave ${w3} px in a ${pane.width} px pane`);
    // Scroll to the top, zoom in, then scroll down: the heads stay visible.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.locator('.diagram-scroll').evaluate((el) => { el.scrollTop = el.scrollHeight; el.dispatchEvent(new Event('scroll')); });
    const heads = page.locator('.diagram-heads');
    await page.waitForFunction(() => document.querySelectorAll('.diagram-heads .head-name').length >= 2);
    const hb = await heads.boundingBox();
    expect(hb && Math.abs(hb.y - pane.y) < 2, `the lifeline heads are not at the top of the pane: ${JSON.stringify(hb)} vs ${pane.y}`);
    const names = await heads.locator('.head-name').allTextContents();
    expect(names.includes('lead') && names.includes('alice'), `the sticky heads show ${names}`);
    await screenshot(page, size, 'dark', 'zoomed-scrolled');
    return errors;
  } finally {
    await context.close();
  }
});

// The extremes: the smallest phone and a 4K projector, after a run.
for (const [size, scheme] of [[{ name: 'small phone', width: 360, height: 640 }, 'light'], [{ name: '4K', width: 3840, height: 2160 }, 'dark']]) {
  test(`${size.width}x${size.height} ${scheme}: after the shutdown run the page fits the screen with no axe violation`, async (browser) => {
    const { context, page, errors } = await openPage(browser, size, scheme);
    try {
      await runShutdown(page, size);
      await expectUsableLayout(page, size);
      if (size.width >= 3000) {
        const zoom = await page.getByRole('group', { name: 'Diagram zoom' }).innerText();
        expect(zoom.includes('150 %'), `a projector starts at 150 % zoom, not: ${zoom}`);
      }
      await screenshot(page, size, scheme, 'run');
      await expectNoAxeViolations(page, `after the shutdown run (${size.width}x${size.height} ${scheme})`);
      return errors;
    } finally {
      await context.close();
    }
  });
}

// The first screen (issue 31 §5): one obvious start and the lesson's three
// scenarios above the fold on every screen, light and dark, axe clean; the
// start button starts the "Without protocols" tour, and a scenario button
// runs its scenario (the card gives way to the run).
const FIRST_SIZES = [{ name: 'full hd', width: 1920, height: 1080 }, CUT_SIZES[0], SIZES[2], CUT_SIZES[2]];
for (const size of FIRST_SIZES) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: the first screen offers the lesson's tour and three scenarios above the fold, axe clean, and starts them`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await expectFirstScreen(page, size);
        await screenshot(page, size, scheme, 'first-screen');
        await expectNoAxeViolations(page, `on the first screen (${tag})`);
        const card = page.getByRole('region', { name: 'Start here', exact: true });
        if (scheme === 'light') {
          await card.getByRole('button', { name: 'Start the lesson: without protocols, then with', exact: true }).click();
          const tour = page.getByRole('region', { name: /^Tour: Without protocols/ });
          await tour.waitFor({ state: 'visible' });
          expect(await card.count() === 0, 'the start card stays over the tour');
          await tour.getByRole('heading', { level: 3 }).first().waitFor({ state: 'visible' });
        } else {
          // A Live run tells each event in turn: 4x keeps this one to ~13 s.
          await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
          await card.getByRole('button', { name: /^Reject a risky plan/ }).click();
          await page.waitForFunction(() => document.querySelector('.banner.run-end') !== null, null, { timeout: 60_000 });
          expect(await card.count() === 0, 'the start card stays over the run');
          expect(!(await page.getByRole('button', { name: 'Play', exact: true }).isDisabled()), 'Play is still disabled with a run on screen');
          expect(!(await page.getByRole('slider', { name: 'Scrub through events' }).isDisabled()), 'the scrubber is still disabled with a run on screen');
        }
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

// A learner's first hour (issue 31, its tests): from the first screen, the
// lesson's tour ("Without protocols", then with) with each stop's text and
// caption read in full, then a scenario in Step mode: one Next, one event,
// one caption, numbered as the counter numbers it, every protocol
// transition told (pending → rejected and pending → approved). At a phone,
// a small phone, a projector and a full HD screen, light and dark, axe clean.
for (const size of FIRST_SIZES) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: a learner's path: the first screen, the lesson's tour read in full, then Step mode tells one event per Next and every protocol transition`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await expectFirstScreen(page, size);
        // The tour walks to each stop at the Speed setting: 4x keeps it short.
        await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
        await page.getByRole('region', { name: 'Start here', exact: true })
          .getByRole('button', { name: 'Start the lesson: without protocols, then with', exact: true }).click();
        const card = page.getByRole('region', { name: /^Tour: Without protocols/ });
        await card.getByText(/^Stop 1 of \d+$/).waitFor({ state: 'visible', timeout: 60_000 });
        const next = card.getByRole('button', { name: 'Next stop', exact: true });
        const titles = [];
        for (let i = 1; i < 40; i++) {
          const at = Number(await card.getAttribute('data-cursor'));
          await page.waitForFunction((at) => /showing (\d+) of/.exec(document.querySelector('svg.diagram')?.getAttribute('aria-label') || '')?.[1] === String(at), at, { timeout: 30_000 });
          titles.push(await card.getByRole('heading', { level: 3 }).innerText());
          await expectWhole(page, '#caption-text', `the caption at stop ${i}`);
          await expectWhole(page, '#tour-text', `stop ${i}`);
          if ((await next.getAttribute('aria-disabled')) === 'true') break;
          const before = titles[titles.length - 1];
          await next.click();
          await page.waitForFunction((before) => document.querySelector('#tour-card h3')?.textContent !== before, before, { timeout: 30_000 });
        }
        for (const told of ['Just a message: “please stop”', 'The lead cannot know', 'With the handshake: a request_id', 'The lead knows for certain']) {
          expect(titles.includes(told), `the tour never showed '${told}': ${titles.join(' | ')}`);
        }
        await screenshot(page, size, scheme, 'learner-tour');
        await expectNoAxeViolations(page, `at the end of the lesson's tour (${tag})`);
        await card.getByRole('button', { name: 'End tour', exact: true }).click();
        await card.waitFor({ state: 'detached' });

        // Step mode: the team pauses before every event; Next releases one.
        await page.getByRole('button', { name: 'Step', exact: true }).click();
        await openDrawer(page, size, 'Setup');
        await page.locator('#setup').getByRole('button', { name: /^Reject a risky plan/ }).click();
        await closeDrawer(page, size, 'Setup');
        const position = async () => (await page.locator('.position').innerText()).split(' / ').map(Number);
        await page.waitForFunction(() => document.querySelector('.position')?.textContent.trim() === '1 / 1', null, { timeout: 30_000 });
        const captions = [];
        for (let shown = 1; (await page.locator('.banner.run-end').count()) === 0; shown++) {
          expect(shown < 200, 'the run never ends');
          await page.getByRole('button', { name: 'Next', exact: true }).click();
          await page.waitForFunction((n) => document.querySelector('.position')?.textContent.trim().startsWith(`${n} /`), shown + 1, { timeout: 30_000 });
          const [a, b] = await position();
          expect(a === shown + 1 && b === shown + 1, `one Next showed ${a} of ${b} events after ${shown}`);
          const step = (await page.locator('.caption-step').innerText()).trim();
          expect(step === `Event #${shown}`, `the caption says '${step}' for event #${shown}`);
          const number = (await page.locator('.event-number').innerText()).trim();
          expect(number === `#${shown}`, `the counter names event '${number}', the caption #${shown}`);
          await expectWhole(page, '#caption-text', `the caption of event #${shown}`);
          captions.push([(await page.locator('.caption-box .caption-title').innerText()).trim(), (await page.locator('#caption-text').innerText()).trim()]);
        }
        const told = (title) => captions.find(([t]) => t === title);
        for (const title of ['Plan submitted', 'plan_approval_request sent', 'Plan rejected', 'Plan approved', 'plan_approval_response sent', 'Run finished']) {
          expect(told(title), `Step mode never told '${title}': ${captions.map(([t]) => t).join(' | ')}`);
        }
        expect(told('Plan rejected')[1].includes('pending → rejected'), `the rejection's caption does not show the transition: ${told('Plan rejected')[1]}`);
        expect(told('Plan approved')[1].includes('pending → approved'), `the approval's caption does not show the transition: ${told('Plan approved')[1]}`);
        await screenshot(page, size, scheme, 'learner-step');
        await expectNoAxeViolations(page, `after stepping through a run (${tag})`);
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

// The engineer's tools: one click on the header's Tools button shows them
// (a drawer on a narrow screen); on a wide screen the setup column widens
// so the Explore panel has room.
for (const [size, scheme] of [[SIZES[0], 'light'], [CUT_SIZES[0], 'dark'], [SIZES[2], 'dark']]) {
  const tag = `${size.width}x${size.height} ${scheme}`;
  test(`${tag}: the Tools button opens the engineer's tools in one click, with room, axe clean`, async (browser) => {
    const { context, page, errors } = await openPage(browser, size, scheme);
    try {
      await openTools(page, size);
      const setup = await page.locator('#setup').boundingBox();
      expect(setup.width >= Math.min(size.width, 400), `the tools have only ${setup.width} px`);
      for (const name of ['Explore every run', 'Trace', 'Settings', 'Faults on the bus', 'Gallery of real failures']) {
        expect(await page.getByRole('heading', { name, exact: true }).count() === 1, `the tools lack '${name}'`);
      }
      expect(await page.getByRole('heading', { name: 'Scenarios', exact: true }).isHidden(), 'the lesson\'s tab still shows beside the tools');
      await screenshot(page, size, scheme, 'tools');
      await expectNoAxeViolations(page, `with the tools open (${tag})`);
      // Back to the lesson's tab by keyboard: the tab list's arrow keys.
      await page.getByRole('tab', { name: 'Tools', exact: true }).press('ArrowLeft');
      expect((await page.getByRole('tab', { name: 'Learn', exact: true }).getAttribute('aria-selected')) === 'true', '← did not pick the Learn tab');
      await page.getByRole('heading', { name: 'Scenarios', exact: true }).waitFor({ state: 'visible' });
      return errors;
    } finally {
      await context.close();
    }
  });
}

// The lesson's languages: a browser in Japanese (and Chinese, Italian) gets
// the page in its language, <html lang> set, no missing key, no text
// spilling out of its controls, and no axe violation after a run.
const LANGUAGES = [
  { locale: 'ja-JP', tag: 'ja', play: '再生', run: '実行', scenario: 'グレースフルシャットダウン', missing: '⟦' },
  { locale: 'zh-CN', tag: 'zh', play: '播放', run: '运行', scenario: '优雅关机', missing: '⟦' },
  { locale: 'it-IT', tag: 'it', play: 'Riproduci', run: 'Esegui', scenario: 'Shutdown ordinato', missing: '⟦' },
];
// Records (in window.__englishSeen) whether the English page ever showed:
// its Play or Run button (the title is not a test: 日本語 keeps the English name).
const WATCH_FOR_ENGLISH = `
  window.__englishSeen = false;
  new MutationObserver(() => {
    if (window.__englishSeen) return;
    const english = [...document.querySelectorAll('button')].find((b) => ['Play', 'Run'].includes(b.textContent.trim()));
    if (english) window.__englishSeen = 'the ' + english.textContent.trim() + ' button';
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;
for (const lang of LANGUAGES) {
  for (const size of [SIZES[0], SIZES[2]]) {
    for (const scheme of SCHEMES) {
      const tag = `${size.width}x${size.height} ${scheme} ${lang.locale}`;
      test(`${tag}: the page comes up in the browser's language, fits, and has no axe violation after a run`, async (browser) => {
        const { context, page, errors } = await openPage(browser, size, scheme, lang.locale, lang.play, WATCH_FOR_ENGLISH);
        try {
          // The translation is fetched before the page mounts: no English first.
          const english = await page.evaluate(() => window.__englishSeen);
          expect(english === false, `English words showed before ${lang.locale}'s: ${english}`);
          const htmlLang = await page.evaluate(() => document.documentElement.lang);
          expect(htmlLang === lang.tag, `<html lang> is '${htmlLang}', not '${lang.tag}'`);
          const picked = await page.locator('#lang-select').inputValue();
          expect(picked === lang.tag, `the switcher shows '${picked}'`);
          await page.getByRole('combobox', { name: /速度|速度|Velocità/ }).selectOption('4');
          if (size.width < DRAWER_BELOW) await page.locator('#setup-toggle').click();
          await page.locator('#setup').getByRole('button', { name: new RegExp(`^${lang.scenario}`) }).click();
          if (size.width < DRAWER_BELOW && (await page.locator('#setup-toggle').getAttribute('aria-expanded')) === 'true') await page.keyboard.press('Escape');
          await page.waitForFunction((runName) => {
            const run = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === runName);
            const m = /(\d+)[^\d]+(\d+)/.exec(document.querySelector('.position')?.textContent || '');
            return run && !run.disabled && m && Number(m[2]) > 5 && m[1] === m[2];
          }, lang.run, { timeout: 60_000 });
          const body = await page.evaluate(() => document.body.innerText);
          expect(!body.includes(lang.missing), `a missing key shows on the page (${tag})`);
          // No button's text spills out of it (CJK text must wrap or fit).
          const spilled = await page.evaluate(() => [...document.querySelectorAll('button, select, summary')]
            .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
            .map((el) => `${el.tagName.toLowerCase()} '${el.textContent.trim().slice(0, 30)}' ${el.scrollWidth}>${el.clientWidth}`));
          expect(spilled.length === 0, `text overflows its control: ${spilled.join('; ')}`);
          await expectUsableLayout(page, size, lang.play);
          await screenshot(page, size, scheme, `run-${lang.tag}`);
          await expectNoAxeViolations(page, `after a run in ${lang.locale} (${tag})`);
          return errors;
        } finally {
          await context.close();
        }
      });
    }
  }
}

// What a run costs, in the four languages (issue 29): a scenario link with a
// budget runs the lesson's shutdown until the budget stops it; the banner
// says so in the page's language, each agent's tokens sit beside its head,
// no key is missing, and the page has no axe violation.
const BUDGET_WORDS = [
  { locale: 'en-US', play: 'Play', banner: 'The budget of 10k tokens stopped the run at event #' },
  { locale: 'ja-JP', play: '再生', banner: '予算 10k' },
  { locale: 'zh-CN', play: '播放', banner: '预算 10k' },
  { locale: 'it-IT', play: 'Riproduci', banner: 'Il budget di 10k' },
];
for (const words of BUDGET_WORDS) {
  test(`390x844 dark ${words.locale}: a budget from a scenario link stops the run, and the banner and the costs speak the page's language`, async (browser) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', reducedMotion: 'reduce', locale: words.locale });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    const errors = [];
    page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
    try {
      await page.goto(`${BASE}#scenario=shutdown&seed=2026&budget=tokens:10000`, { waitUntil: 'load' });
      const banner = page.locator('.banner-budget');
      await banner.waitFor({ state: 'visible' });
      const text = (await banner.innerText()).trim();
      expect(text.includes(words.banner), `the budget's banner in ${words.locale}: ${text}`);
      expect(!text.includes('⟦'), `no missing key in the banner: ${text}`);
      const costs = await page.locator('.head-cost').allTextContents();
      expect(costs.length > 0 && costs.every((c) => /\d/.test(c)), `each agent's tokens beside its head: ${JSON.stringify(costs)}`);
      expect(!(await page.locator('body').innerText()).includes('⟦'), `a missing key shows on the page (${words.locale})`);
      await screenshot(page, SIZES[2], 'dark', `budget-${words.locale}`);
      await expectNoAxeViolations(page, `a budget-stopped run in ${words.locale}`);
      return errors;
    } finally {
      await context.close();
    }
  });
}

// A translation that cannot be fetched: the page comes up in English, says
// why in the banner, and works (a run, the switcher back on English).
test('1440x900 light ja-JP: a language the server refuses leaves the page in English, usable, and the banner says why', async (browser) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light', reducedMotion: 'reduce', locale: 'ja-JP' });
  await context.route('**/locales/ja/**', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' }));
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  const errors = [];
  // The refused files are the point of this test: only their 404s are expected.
  const expected404 = (text) => /status of 404/.test(text);
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !expected404(msg.text())) errors.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  try {
    await page.goto(BASE, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ state: 'visible' });
    const alert = (await page.getByRole('alert').allInnerTexts()).join(' ');
    expect(alert.includes('日本語 could not be loaded (the server answered 404). The page stays in English.'), `the banner says: '${alert}'`);
    expect((await page.evaluate(() => document.documentElement.lang)) === 'en', '<html lang> is en');
    expect((await page.locator('#lang-select').inputValue()) === 'en', 'the switcher shows English');
    await runShutdown(page, SIZES[0]);
    const [shown, total] = await shownOf(page);
    expect(shown === total && total > 5, `the run is shown (${shown} of ${total})`);
    return errors;
  } finally {
    await context.close();
  }
});

// Moving messages (issue 11, item 5): a step sends an envelope along its
// arrow (a transform animation); with reduced motion the same step only
// fades (opacity). Screenshots are taken mid-animation.
/** Keyframe properties of the animations running in the diagram (meta keys left out). */
async function diagramAnimationProperties(page) {
  return page.evaluate(() => {
    const meta = new Set(['offset', 'computedOffset', 'easing', 'composite']);
    return document.getAnimations()
      .filter((a) => a.effect?.target?.closest?.('svg.diagram') && a.playState === 'running')
      .map((a) => ({
        target: a.effect.target.getAttribute('class') || a.effect.target.tagName,
        props: [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k).filter((p) => !meta.has(p))))],
      }));
  });
}

/** From the first event, Next until a message travels; returns the mover's class. */
async function stepToATravellingMessage(page) {
  await page.locator('.diagram-scroll').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 40; i++) {
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    const cls = await page.evaluate(() => document.querySelector('svg.diagram .mover.travel')?.getAttribute('class'));
    if (cls) return cls;
  }
  throw new Failure('no message travelled in 40 steps');
}

for (const size of [SIZES[0], SIZES[2]]) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: Next sends an envelope along its arrow; with reduced motion the step only fades`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await page.emulateMedia({ reducedMotion: 'no-preference' });
        await runShutdown(page, size);
        // Slowest speed: the movement takes 1.44 s, time enough to look at it.
        await page.getByRole('combobox', { name: 'Speed' }).selectOption('0.25');
        await stepToATravellingMessage(page);
        const moving = await diagramAnimationProperties(page);
        expect(moving.some((a) => /mover/.test(a.target) && a.props.includes('transform')), `no envelope moves: ${JSON.stringify(moving)}`);
        await page.waitForTimeout(650);
        await screenshot(page, size, scheme, 'motion-mid');
        const inbox = page.getByRole('img', { name: /'s inbox: \d+ waiting$/ });
        expect(await inbox.count() >= 1, 'no inbox shows the waiting message');
        // Back runs the movement in reverse.
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        const back = await page.evaluate(() => document.querySelector('svg.diagram .mover.travel')?.getAttribute('class') || '');
        expect(back.includes('back'), `Back did not move the envelope back: '${back}'`);
        // Reduced motion: the same step fades, nothing is translated.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.getByRole('button', { name: 'Next', exact: true }).click();
        const faded = await diagramAnimationProperties(page);
        expect(faded.some((a) => /mover/.test(a.target)), `nothing fades with reduced motion: ${JSON.stringify(faded)}`);
        const moved = faded.filter((a) => a.props.some((p) => p !== 'opacity'));
        expect(moved.length === 0, `with reduced motion these still animate more than opacity: ${JSON.stringify(moved)}`);
        await page.waitForTimeout(500);
        await screenshot(page, size, scheme, 'motion-reduced');
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

for (const scheme of SCHEMES) {
  const size = SIZES[2];
  test(`390x844 ${scheme}: the messages table scrolls in its own box, the page does not scroll sideways`, async (browser) => {
    const { context, page, errors } = await openPage(browser, size, scheme);
    try {
      await runShutdown(page, size);
      await page.getByRole('button', { name: 'Messages as a table', exact: true }).click();
      await page.locator('table.message-table tbody tr').first().waitFor({ state: 'visible' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow <= 0, `with the messages table open the page scrolls sideways by ${overflow} px`);
      const box = await page.locator('table.message-table').evaluate((t) => {
        const scroller = t.closest('.message-table-scroll');
        const r = scroller.getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
      expect(box.left >= 0 && box.right <= size.width + 0.5, `the table's box is off screen: ${JSON.stringify(box)}`);
      await screenshot(page, size, scheme, 'message-table');
      await expectNoAxeViolations(page, `with the messages table open (390x844 ${scheme})`);
      return errors;
    } finally {
      await context.close();
    }
  });
}


// Presenter mode (issue 31, item 4): its button and the P key turn it on,
// Escape leaves it; the page shows the controls, the caption and the
// diagram alone. On a room's screen (1920x1080, 1280x720) every text of the
// diagram is at least 18 CSS px tall as drawn (its font size times the
// SVG's scale on screen) and the caption at least 24 px; on a phone, a
// hand's screen, the diagram keeps its everyday scale (no text under
// 12 px) and the caption is 18 px; either way the diagram has at least half
// the screen's height, Next still moves the caption, and light and dark are
// axe clean.
const PRESENTER_SIZES = [
  { name: 'full hd', width: 1920, height: 1080, room: true },
  { name: 'hd', width: 1280, height: 720, room: true },
  { ...SIZES[2], room: false },
];

/** The smallest diagram text as drawn, the caption's sizes and what shows. */
async function presenterMeasures(page) {
  return page.evaluate(() => {
    const texts = [...document.querySelectorAll('svg.diagram:not(.legend-drawing) text, .diagram-heads svg text')]
      .filter((t) => t.getBoundingClientRect().height > 0 && t.textContent.trim() !== '');
    const drawn = texts.map((t) => {
      const m = t.getScreenCTM();
      return { px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b), text: t.textContent.trim(), cls: t.getAttribute('class') || t.parentElement.getAttribute('class') };
    });
    drawn.sort((a, b) => a.px - b.px);
    const size = (sel) => { const el = document.querySelector(sel); return el ? parseFloat(getComputedStyle(el).fontSize) : 0; };
    const shown = (sel) => { const el = document.querySelector(sel); return !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'; };
    const pane = document.querySelector('.diagram-scroll').getBoundingClientRect();
    return {
      count: drawn.length,
      smallest: drawn[0],
      largest: drawn[drawn.length - 1],
      caption: Math.min(size('.caption-title'), size('.caption-text'), size('.caption-step')),
      next: size('.controls button[aria-keyshortcuts=ArrowRight]'),
      zoom: document.querySelector('.zoom-level')?.textContent,
      pane: { width: Math.round(pane.width), height: Math.round(pane.height) },
      setup: shown('#setup'), panels: shown('#panels'), tagline: shown('.tagline'), languages: shown('.lang-switch'),
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
}

async function expectPresenting(page, on, how) {
  const app = page.locator('.app');
  await page.waitForFunction((on) => document.querySelector('.app').classList.contains('presenter') === on, on);
  const pressed = await page.getByRole('button', { name: 'Presenter', exact: true }).getAttribute('aria-pressed');
  expect(pressed === String(on), `${how}: the Presenter button says aria-pressed=${pressed}`);
  expect((await app.getAttribute('class')).includes('presenter') === on, how);
}

for (const size of PRESENTER_SIZES) {
  for (const scheme of SCHEMES) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: presenter mode (button, P, Escape) shows the diagram's text at >= ${size.room ? 18 : 12} px and the caption at >= ${size.room ? 24 : 18} px, Next works, no axe violation`, async (browser) => {
      const { context, page, errors } = await openPage(browser, size, scheme);
      try {
        await runShutdown(page, size);
        const button = page.getByRole('button', { name: 'Presenter', exact: true });
        expect((await button.getAttribute('aria-keyshortcuts')) === 'p', 'the Presenter button names its key');
        const before = await presenterMeasures(page);
        await button.click();
        await expectPresenting(page, true, 'the button');
        await page.keyboard.press('Escape');
        await expectPresenting(page, false, 'Escape');
        await page.keyboard.press('p');
        await expectPresenting(page, true, 'the P key');
        // The canvas rescales once the pane has its new size.
        await page.waitForFunction((least) => parseFloat(document.querySelector('.zoom-level').textContent) >= least, size.room ? 150 : 100);
        // Step back a little, so the cursor's row is mid-run.
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        const step = page.locator('.caption-step');
        const at = await step.innerText();
        await page.getByRole('button', { name: 'Next', exact: true }).click();
        await page.waitForFunction((at) => document.querySelector('.caption-step').innerText !== at, at);
        const m = await presenterMeasures(page);
        console.log(`    ${tag}: diagram text ${before.smallest.px.toFixed(1)} px before, ${m.smallest.px.toFixed(1)}-${m.largest.px.toFixed(1)} px in presenter mode (${m.count} texts, smallest '${m.smallest.text}' ${m.smallest.cls}), zoom ${m.zoom}, caption ${m.caption} px, Next ${m.next} px, pane ${m.pane.width}x${m.pane.height} (was ${before.pane.width}x${before.pane.height})`);
        expect(m.count > 10, `only ${m.count} diagram texts are drawn`);
        const [text, caption, controls] = size.room ? [18, 24, 18] : [12, 18, 14];
        expect(m.smallest.px >= text, `a diagram text is drawn ${m.smallest.px.toFixed(2)} px tall: '${m.smallest.text}' (${m.smallest.cls})`);
        expect(m.caption >= caption, `the caption is ${m.caption} px`);
        expect(m.next >= controls, `the controls' text is ${m.next} px`);
        expect(m.pane.height >= size.height / 2, `the diagram pane is ${m.pane.height} px tall`);
        expect(!m.setup && !m.panels && !m.tagline && !m.languages, `hidden in presenter mode: ${JSON.stringify(m)}`);
        expect(m.overflow <= 0, `the page scrolls sideways by ${m.overflow} px`);
        expect(m.pane.width >= size.width - 40, `the diagram pane is ${m.pane.width} px wide`);
        await expectUsableLayout(page, size);
        await screenshot(page, size, scheme, 'presenter');
        await expectNoAxeViolations(page, `in presenter mode (${tag})`);
        await button.click();
        await expectPresenting(page, false, 'the button again');
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

registerExplore(test, { openPage, expect, openDrawer, closeDrawer, openTools, screenshot, expectNoAxeViolations, shownOf });
registerGallery(test, { openPage, expect, openDrawer, closeDrawer, openTools, screenshot, expectNoAxeViolations });
registerProtocols(test, { openPage, expect, screenshot, expectNoAxeViolations, runEnded });
registerProtocolRun(test, { openPage, expect, openDrawer, closeDrawer, openTools, screenshot, expectNoAxeViolations, shownOf, runEnded });
registerStorage(test, { openPage, expect, openTools, shownOf, runEnded });

const browser = await chromium.launch({
  executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
let passed = 0;
let failed = 0;
const started = Date.now();
try {
  for (const t of tests) {
    if (ONLY && !t.name.includes(ONLY)) continue;
    const t0 = Date.now();
    try {
      const errors = await t.fn(browser);
      expect(errors.length === 0, `errors in the browser:\n    ${errors.join('\n    ')}`);
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name} (${Date.now() - t0} ms)\n    ${e instanceof Failure ? e.message : e.stack || e}`);
    }
  }
} finally {
  await browser.close();
}
const total = axeCounts.reduce((n, a) => n + a.count, 0);
console.log(`axe: ${axeCounts.length} audits, ${total} violating nodes${tabStopsBeforeStart.length ? `; ${tabStopsBeforeStart[0]} tab stops before the start button` : ''}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
