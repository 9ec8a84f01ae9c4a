// End-to-end tests of the Explore panel (issue 13): a search in Web Workers
// with live counters, its verdicts, two workers sharing one search, a counterexample opened and stepped on
// the diagram, Stop ending the workers, a fork shown side by side, and a
// link that reopens a counterexample. Registered by run.mjs.

/** Sets the Explore panel's scenario, faults and workers. */
async function setUp(page, { scenario, faults, workers }) {
  await page.getByRole('combobox', { name: 'Scenario to explore' }).selectOption(scenario);
  const f = page.getByRole('spinbutton', { name: 'Faults per run' });
  await f.fill(String(faults));
  await f.dispatchEvent('change');
  if (workers) await page.getByRole('combobox', { name: 'Workers' }).selectOption(String(workers));
}

/** The search's status line. */
const status = (page) => page.locator('.explore-status [role=status]');

/** Waits for the search to end; returns its status line. */
async function searchEnds(page, h) {
  await page.waitForFunction(() => {
    const s = document.querySelector('.explore-status [role=status]');
    // Searching, then shrinking the examples to the fewest faults; once
    // done, until every verdict is drawn (the list is busy until then).
    return s && !/^(Searching|Shrinking)/.test(s.textContent) && !document.querySelector('.verdicts[aria-busy=true]');
  }, null, { timeout: 120_000 });
  return status(page).textContent();
}

export function register(test, h) {
  for (const [size, scheme] of [[{ width: 1440, height: 900 }, 'light'], [{ width: 390, height: 844 }, 'dark']]) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: explore the shutdown scenario with one fault, open the counterexample, step it`, async (browser) => {
      const { context, page, errors } = await h.openPage(browser, size, scheme);
      try {
        await h.openTools(page, size);
        await setUp(page, { scenario: 'shutdown', faults: 1, workers: 1 });
        await page.getByRole('button', { name: 'Start', exact: true }).click();
        const done = await searchEnds(page, h);
        h.expect(done.startsWith('Done: every run'), `the search did not finish complete: ${done}`);
        const states = Number((await page.locator('[data-counter=states]').textContent()).replace(/,/g, ''));
        h.expect(states > 50, `only ${states} states explored`);
        const lost = page.locator('.verdict[data-property=no_answer_lost]');
        h.expect((await lost.locator('.verdict-badge').textContent()) === 'fails', 'a dropped answer is not found');
        const approved = page.locator('.verdict[data-property=some_request_approved] .verdict-badge');
        h.expect((await approved.textContent()) === 'holds', 'approval is not reachable');
        await h.screenshot(page, size, scheme, 'explore-verdicts');
        await h.expectNoAxeViolations(page, `with verdicts (${tag})`);
        // Ticking a property off hides its row only: the box keeps its focus
        // and the list of properties stays open.
        const picker = page.locator('section.explore details').filter({ has: page.locator('summary', { hasText: 'Which properties to list' }) });
        await picker.locator('summary').click();
        const box = picker.getByRole('checkbox', { name: 'no_answer_lost', exact: true });
        await box.uncheck();
        h.expect(await lost.isHidden(), 'an unticked property is still listed');
        h.expect(await picker.evaluate((d) => d.open), 'the list of properties closed when a box was unticked');
        h.expect(await box.evaluate((b) => b === document.activeElement), 'the unticked box lost its focus');
        await box.check();
        h.expect(await lost.isVisible(), 'a ticked property is not listed');
        await picker.locator('summary').click();
        await lost.getByRole('button', { name: /^Open counterexample of no_answer_lost/ }).click();
        await h.closeDrawer(page, size, 'Setup');
        const card = page.getByRole('region', { name: 'Broken: always no_answer_lost' });
        await card.waitFor({ state: 'visible' });
        const text = await card.innerText();
        h.expect(/dropped/.test(text) && /1 fault/.test(text), `the card does not say what broke: ${text}`);
        const [at, total] = await h.shownOf(page);
        h.expect(at >= 1 && at <= total, `the cursor is not on the run: ${at} of ${total}`);
        await page.getByRole('button', { name: 'Back', exact: true }).click();
        h.expect((await h.shownOf(page))[0] === at - 1, 'Back does not step the counterexample');
        await page.getByRole('button', { name: 'Next', exact: true }).click();
        h.expect((await h.shownOf(page))[0] === at, 'Next does not step the counterexample');
        await h.screenshot(page, size, scheme, 'explore-counterexample');
        await h.expectNoAxeViolations(page, `with a counterexample open (${tag})`);
        // Its link reopens it in a fresh page.
        const href = await card.getByRole('link', { name: 'Link to this run' }).getAttribute('href');
        const again = await context.newPage();
        await again.goto(href, { waitUntil: 'load' });
        const reopened = again.getByRole('region', { name: 'Broken: always no_answer_lost' });
        await reopened.waitFor({ state: 'visible' });
        h.expect((await h.shownOf(again))[0] === at, 'the link does not reopen the run at the same event');
        await again.close();
        // A witness shrunk to fewer faults than the search allowed replays
        // under its own bound: the whole run, to the event that shows it.
        await h.openDrawer(page, size, 'Setup');
        await page.locator('.verdict[data-property=some_request_approved]').getByRole('button', { name: /^Open witness of some_request_approved .*no fault/ }).click();
        await h.closeDrawer(page, size, 'Setup');
        const witness = page.getByRole('region', { name: 'Shown: sometimes some_request_approved' });
        await witness.waitFor({ state: 'visible' });
        const shown = await witness.innerText();
        h.expect(/The event where it happens, #\d+, is at the cursor/.test(shown), `the witness's event is not marked: ${shown}`);
        const [wat, wtotal] = await h.shownOf(page);
        h.expect(wat >= 1 && wat <= wtotal, `the cursor is not on the witness: ${wat} of ${wtotal}`);
        return errors;
      } finally {
        await context.close();
      }
    });
  }

  test('1440x900 dark: Stop ends the workers of an explore search that is still running', async (browser) => {
    const size = { width: 1440, height: 900 };
    const { context, page, errors } = await h.openPage(browser, size, 'dark');
    try {
      await h.openTools(page, size);
      const workers = [];
      page.on('worker', (w) => workers.push(w));
      await setUp(page, { scenario: 'out-of-order', faults: 3, workers: 2 });
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.waitForFunction(() => Number((document.querySelector('[data-counter=states]')?.textContent || '0').replace(/,/g, '')) > 0, null, { timeout: 60_000 });
      h.expect(workers.length === 2, `${workers.length} workers started, not 2`);
      const closed = Promise.all(workers.map((w) => new Promise((resolve) => w.once('close', resolve))));
      await page.getByRole('button', { name: 'Stop', exact: true }).last().click();
      await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the workers were not ended within 5 s')), 5_000))]);
      h.expect((await status(page).textContent()).startsWith('Stopped'), 'the status does not say Stopped');
      const frozen = await page.locator('[data-counter=states]').textContent();
      await page.waitForTimeout(600);
      h.expect((await page.locator('[data-counter=states]').textContent()) === frozen, 'the counters still move after Stop');
      // Fresh workers load for the next search a moment after Stop.
      const t = Date.now();
      while (workers.length < 4 && Date.now() - t < 10_000) await page.waitForTimeout(50);
      h.expect(workers.length === 4, `${workers.length - 2} spare workers loaded after Stop, not 2`);
      return errors;
    } finally {
      await context.close();
    }
  });

  test('1440x900 light: the workers load when the user comes to the Explore panel, Start hands them the search, and fresh ones load after it', async (browser) => {
    const size = { width: 1440, height: 900 };
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await h.openTools(page, size);
      const workers = [];
      page.on('worker', (w) => workers.push(w));
      const closed = new Set();
      page.on('worker', (w) => w.once('close', () => closed.add(w)));
      const until = async (what, ok) => {
        const t = Date.now();
        while (!ok()) {
          if (Date.now() - t > 10_000) throw new Error(`${what} within 10 s (${workers.length} workers started, ${closed.size} ended)`);
          await page.waitForTimeout(50);
        }
      };
      await page.waitForTimeout(500);
      h.expect(workers.length === 0, `${workers.length} workers started before the user came to the Explore panel`);
      // Coming to the panel (here by keyboard) loads the one worker the
      // settings ask for; choosing two loads the second.
      await page.getByRole('combobox', { name: 'Scenario to explore' }).focus();
      await until('one spare worker', () => workers.length === 1);
      await setUp(page, { scenario: 'shutdown', faults: 1, workers: 2 });
      await until('a second spare worker', () => workers.length === 2);
      await page.waitForTimeout(1_000);
      // Start starts none: the two loaded workers get their slices (a
      // worker that said `ready` before Start is sent its slice at once).
      // (Counted as the search ends: the next spare workers start a second
      // after it.)
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      const done = await searchEnds(page, h);
      const duringSearch = workers.length;
      h.expect(done.startsWith('Done: every run'), `the search on spare workers did not finish complete: ${done}`);
      h.expect(duringSearch === 2, `Start started ${duringSearch - 2} more workers although two were loaded`);
      const lost = await page.locator('.verdict[data-property=no_answer_lost] .verdict-badge').textContent();
      h.expect(lost === 'fails', `the spare workers' search did not find the dropped answer: ${lost}`);
      // The search's workers end; two fresh ones load for the next search.
      await until('the search\'s workers ended', () => closed.has(workers[0]) && closed.has(workers[1]));
      await until('two fresh spare workers', () => workers.length === 4);
      h.expect(!closed.has(workers[2]) && !closed.has(workers[3]), 'the fresh spare workers ended');
      return errors;
    } finally {
      await context.close();
    }
  });

  test('1440x900 light: a worker script that cannot load: the failed spare worker is let go, Start says why instead of waiting, and once the script loads a search runs', async (browser) => {
    const size = { width: 1440, height: 900 };
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await h.openTools(page, size);
      let broken = true;
      await context.route('**/explore_worker_loader.js', (route) => (broken ? route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' }) : route.continue()));
      const workers = [];
      page.on('worker', (w) => workers.push(w));
      await page.getByRole('combobox', { name: 'Scenario to explore' }).focus();
      await setUp(page, { scenario: 'shutdown', faults: 1, workers: 1 });
      await page.waitForTimeout(1_000);
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.waitForFunction(() => /^The search failed/.test(document.querySelector('.explore-status [role=status]')?.textContent || ''), null, { timeout: 20_000 });
      const failed = await status(page).textContent();
      h.expect(/did not load/.test(failed), `the status does not say the worker did not load: ${failed}`);
      broken = false;
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      const done = await searchEnds(page, h);
      h.expect(done.startsWith('Done: every run'), `once the script loads, the search did not run: ${done}`);
      // The refused script's 404s are the point of this test.
      return errors.filter((e) => !/status of 404|explore_worker_loader/.test(e));
    } finally {
      await context.close();
    }
  });

  test('1440x900 light: explore with two workers sharing one search: the verdicts of one worker, and about its distinct states, not twice them', async (browser) => {
    const size = { width: 1440, height: 900 };
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await h.openTools(page, size);
      const count = async (name) => Number((await page.locator(`[data-counter=${name}]`).textContent()).replace(/,/g, ''));
      const verdicts = () => page.evaluate(() => [...document.querySelectorAll('.verdict[data-property]')]
        .map((v) => `${v.dataset.property}=${v.querySelector('.verdict-badge').textContent}`).join(' '));
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      const search = async (workers) => {
        await setUp(page, { scenario: 'out-of-order', faults: 1, workers });
        // Workers on every core leave none to the page: the panel says so.
        const note = await page.getByText(/workers take every core this device has/).count();
        h.expect(note === (workers > 1 && workers >= cores ? 1 : 0), `${workers} workers on ${cores} cores: the note is shown ${note} times`);
        await page.getByRole('button', { name: 'Start', exact: true }).click();
        const done = await searchEnds(page, h);
        h.expect(done.startsWith('Done: every run'), `${workers} workers: the search did not finish complete: ${done}`);
        return { distinct: await count('distinct'), verdicts: await verdicts() };
      };
      const one = await search(1);
      const two = await search(2);
      h.expect(one.verdicts.length > 0 && two.verdicts === one.verdicts, `the verdicts differ: ${one.verdicts} / ${two.verdicts}`);
      const ratio = two.distinct / one.distinct;
      h.expect(ratio > 0.9 && ratio < 1.15, `two workers counted ${two.distinct} distinct states, one ${one.distinct}`);
      return errors;
    } finally {
      await context.close();
    }
  });

  test('1440x900 light: a fork shows the run and its branch side by side, the first difference marked', async (browser) => {
    const size = { width: 1440, height: 900 };
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
      await page.locator('#setup').getByRole('button', { name: /^Reject a risky plan/ }).click();
      await page.waitForFunction(() => {
        const run = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Run');
        return run && !run.disabled && document.querySelectorAll('svg.diagram').length > 0;
      }, null, { timeout: 60_000 });
      await page.waitForFunction(() => /showing (\d+) of \1 events/.test(document.querySelector('svg.diagram')?.getAttribute('aria-label') || ''));
      await h.openTools(page, size);
      await page.getByRole('button', { name: 'Fork the run on screen' }).click();
      const card = page.getByRole('region', { name: /^This run, as the explorer's path/ });
      await card.waitFor({ state: 'visible' });
      // The lead's review: fork it to approve instead.
      const steps = card.getByRole('button', { name: /^Fork at choice \d+: lead's model/ });
      await steps.first().click();
      await card.getByRole('button', { name: /^Instead: lead's model: approve/ }).click();
      const fork = page.getByRole('region', { name: /^Fork at choice/ });
      await fork.waitFor({ state: 'visible' });
      const table = fork.getByRole('table');
      const headers = await table.locator('thead th').allTextContents();
      h.expect(headers.includes('Original') && headers.includes('Branch'), `the columns are ${headers}`);
      const first = table.locator('tr.fork-first');
      h.expect((await first.count()) === 1, 'no first difference is marked');
      h.expect((await first.innerText()).includes('first difference'), 'the first difference is not labelled');
      const same = await table.locator('tr.fork-same').count();
      h.expect(same > 5, `the runs share only ${same} rows before they part`);
      await h.screenshot(page, size, 'light', 'fork');
      await h.expectNoAxeViolations(page, 'with a fork shown');
      await fork.getByRole('button', { name: 'Open the branch on the diagram' }).click();
      await page.getByRole('region', { name: /^The branch of the fork/ }).waitFor({ state: 'visible' });
      return errors;
    } finally {
      await context.close();
    }
  });

  // The panel in the page's language: a search, its verdicts and the
  // counterexample's card in Japanese (no missing key, no text spilling out
  // of a control), and a switch to English rewords the card in place.
  for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    const tag = `${size.width}x${size.height} light ja-JP`;
    test(`${tag}: the Explore panel and its counterexample card speak Japanese, and switching to English rewords them`, async (browser) => {
      const { context, page, errors } = await h.openPage(browser, size, 'light', 'ja-JP', '再生');
      try {
        await h.openTools(page, size);
        await page.getByRole('combobox', { name: '探索するシナリオ' }).selectOption('shutdown');
        const f = page.getByRole('spinbutton', { name: '実行あたりの障害数' });
        await f.fill('1');
        await f.dispatchEvent('change');
        await page.getByRole('combobox', { name: 'ワーカー' }).selectOption('1');
        await page.getByRole('button', { name: '開始', exact: true }).click();
        await page.waitForFunction(() => {
          const s = document.querySelector('.explore-status [role=status]');
          // Searching, then shrinking the examples to the fewest faults;
          // once done, until every verdict is drawn.
          return s && !/^(探索中|例を最少)/.test(s.textContent) && !document.querySelector('.verdicts[aria-busy=true]');
        }, null, { timeout: 120_000 });
        const done = await status(page).textContent();
        h.expect(done.startsWith('完了：'), `the status is not in Japanese: ${done}`);
        const lost = page.locator('.verdict[data-property=no_answer_lost]');
        h.expect((await lost.locator('.verdict-badge').textContent()) === '違反', 'the verdict badge is not in Japanese');
        const panel = page.locator('section.explore');
        await panel.scrollIntoViewIfNeeded();
        const spilled = await page.evaluate(() => [...document.querySelectorAll('section.explore button, section.explore select, section.explore summary, section.explore .verdict-badge, section.explore dt')]
          .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
          .map((el) => `${el.tagName.toLowerCase()} '${el.textContent.trim().slice(0, 30)}' ${el.scrollWidth}>${el.clientWidth}`));
        h.expect(spilled.length === 0, `text overflows its control: ${spilled.join('; ')}`);
        await h.screenshot(page, size, 'light', 'explore-ja');
        await lost.getByRole('button', { name: /^no_answer_lost の反例を開く/ }).click();
        if (size.width < 1200 && (await page.locator('#setup-toggle').getAttribute('aria-expanded')) === 'true') await page.keyboard.press('Escape');
        const card = page.getByRole('region', { name: '破られた性質：always no_answer_lost' });
        await card.waitFor({ state: 'visible' });
        const text = await card.innerText();
        h.expect(text.includes('障害 1 件') && text.includes('性質：'), `the card is not in Japanese: ${text}`);
        const body = await page.evaluate(() => document.body.innerText);
        h.expect(!body.includes('⟦'), 'a missing key shows on the page');
        await h.screenshot(page, size, 'light', 'explore-ja-card');
        await h.expectNoAxeViolations(page, `with a Japanese counterexample card (${tag})`);
        await page.locator('#lang-select').selectOption('en');
        await page.getByRole('region', { name: 'Broken: always no_answer_lost' }).waitFor({ state: 'visible' });
        return errors;
      } finally {
        await context.close();
      }
    });
  }
}

export function registerGallery(test, h) {
  // The respawn case (issue 31 §6): the restarted alice gets a new lifeline
  // head at her respawn; the finding about the request left pending agrees
  // with the tracker's approved; the trace box's share link reopens the
  // finding with its card, not just its trace.
  for (const [size, scheme] of [[{ width: 1440, height: 900 }, 'light'], [{ width: 390, height: 844 }, 'dark']]) {
    const tag = `${size.width}x${size.height} ${scheme}`;
    test(`${tag}: the gallery's respawn case draws the restarted alice a new head, words its findings as the tracker holds them, and its share link keeps the card`, async (browser) => {
      const { context, page, errors } = await h.openPage(browser, size, scheme);
      try {
        await h.openTools(page, size);
        const entry = page.getByRole('region', { name: 'Gallery of real failures' }).getByRole('article').first();
        const title = (await entry.getByRole('heading').textContent()).trim();
        h.expect(title.includes('respawned'), `the first entry is '${title}'`);
        await entry.getByRole('button', { name: 'Reproduce' }).click();
        const card = page.getByRole('region', { name: `Reproduced: ${title}` });
        await card.waitFor({ state: 'visible', timeout: 60_000 });
        // The share link of the trace box is the finding's explorer link.
        const link = await page.getByRole('textbox', { name: 'Share link', exact: true }).inputValue();
        h.expect(link.includes('#explore='), `the share link does not carry the finding: ${link.slice(0, 80)}`);
        await h.closeDrawer(page, size, 'Setup');
        await page.keyboard.press('End');
        const heads = await page.locator('svg.diagram .head-name').allTextContents();
        h.expect(heads.filter((t) => t === 'alice').length === 2, `alice has ${heads.filter((t) => t === 'alice').length} heads: ${heads}`);
        h.expect((await page.locator('svg.diagram .head-status').allTextContents()).includes('replaced'), 'the first alice is not marked replaced');
        // The card leaves the diagram room, even on a phone (its story is
        // cut to a few lines there, More shows the rest).
        const pane = await page.locator('.diagram-scroll').boundingBox();
        h.expect(pane && pane.height >= 150, `with the card open the diagram pane is ${pane && Math.round(pane.height)} px tall`);
        await h.screenshot(page, size, scheme, 'respawn');
        await h.expectNoAxeViolations(page, `with the respawn case open (${tag})`);
        // The findings panel agrees with the tracker at the end.
        await h.openDrawer(page, size, 'Panels');
        const finding = page.locator('.violation-item', { hasText: 'request left pending' });
        const words = await finding.innerText();
        h.expect(words.includes('the tracker now holds it approved'), `the finding contradicts the tracker: ${words}`);
        await h.closeDrawer(page, size, 'Panels');
        // Opened from the link in a fresh page: the card comes back.
        const again = await context.newPage();
        await again.goto(link, { waitUntil: 'load' });
        await again.getByRole('region', { name: `Reproduced: ${title}` }).waitFor({ state: 'visible', timeout: 60_000 });
        const text = await again.getByRole('region', { name: `Reproduced: ${title}` }).innerText();
        h.expect(text.includes('claude-code#') && text.includes('incarnation 2'), `the reopened card does not say what broke: ${text}`);
        await again.close();
        return errors;
      } finally {
        await context.close();
      }
    });
  }

  test('1440x900 light: each gallery entry reproduces its failure with its rule off, and the rule on prevents it', async (browser) => {
    const size = { width: 1440, height: 900 };
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await h.openTools(page, size);
      const gallery = page.getByRole('region', { name: 'Gallery of real failures' });
      // The entries with a protective rule (the protocol files' entries follow them).
      const entries = gallery.getByRole('article').filter({ has: page.getByRole('button', { name: 'Reproduce' }) });
      const n = await entries.count();
      h.expect(n === 4, `${n} gallery entries, not 4`);
      const files = await gallery.getByRole('article').filter({ has: page.getByRole('button', { name: 'Run and search' }) }).count();
      h.expect(files === 3, `${files} protocol file entries, not 3`);
      for (let i = 0; i < n; i++) {
        const entry = entries.nth(i);
        const title = (await entry.getByRole('heading').textContent()).trim();
        const breaks = (await entry.locator('code').first().textContent()).trim();
        await entry.getByRole('button', { name: 'Reproduce' }).click();
        const card = page.getByRole('region', { name: `Reproduced: ${title}` });
        await card.waitFor({ state: 'visible', timeout: 60_000 });
        const property = breaks.split(' ')[1];
        const verdict = page.locator(`.verdict[data-property=${property}] .verdict-badge`);
        h.expect((await verdict.textContent()) === 'fails', `${title}: ${property} does not fail with the rule off`);
        h.expect((await card.innerText()).includes('claude-code#'), `${title}: the card does not name the reported issue`);
        const rule = entry.getByRole('switch');
        await rule.check();
        await page.getByRole('region', { name: `Prevented: ${title}` }).waitFor({ state: 'visible' });
        await page.waitForFunction((p) => {
          const s = document.querySelector('.explore-status [role=status]');
          const v = document.querySelector(`.verdict[data-property=${p}] .verdict-badge`);
          return s && s.textContent.startsWith('Done') && v && v.textContent === 'holds';
        }, property, { timeout: 60_000 });
        if (i === 0) {
          await h.screenshot(page, size, 'light', 'gallery');
          await h.expectNoAxeViolations(page, 'with a gallery entry prevented');
        }
      }
      return errors;
    } finally {
      await context.close();
    }
  });
}
