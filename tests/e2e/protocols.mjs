// End-to-end tests of the Protocols view (issue 27 items 1-3): opened from
// the header by its name, New file starts from the template and loads, an
// error typed is listed with its line and a click puts the caret there,
// fixing it clears the list; the view fits the screen (nothing scrolls
// sideways) and axe finds no violation, at each size and theme. And items
// 4-6: the file's team runs onto the diagram (its arrows, its FSM badge),
// is explored with one fault in the workers, the counterexample opens on
// the diagram, and its link opened in a fresh page shows the same run and
// the file among the user's own. Registered by run.mjs.

export function register(test, h) {
  const sizes = [
    { width: 1440, height: 900 },
    { width: 768, height: 1024 },
    { width: 390, height: 844 },
    { width: 360, height: 640 },
  ];
  for (const size of sizes) {
    for (const scheme of ['light', 'dark']) {
      const tag = `${size.width}x${size.height} ${scheme}`;
      test(`${tag}: the Protocols view opens from the header, a new file's error is listed with its line, clicked to the caret and fixed, axe clean`, async (browser) => {
        const { context, page, errors } = await h.openPage(browser, size, scheme);
        try {
          const { dialog, editor, template } = await newFile(page);
          h.expect(template.startsWith('# A new protocol file.'), 'the template is in the editor');
          await dialog.getByText('The file loads.').waitFor();
          await h.screenshot(page, size, scheme, 'protocols');
          await h.expectNoAxeViolations(page, `with the Protocols view open (${tag})`);
          const overflow = await page.evaluate(() => {
            const d = document.querySelector('dialog.protocols');
            return Math.max(document.documentElement.scrollWidth - window.innerWidth, d.scrollWidth - d.clientWidth);
          });
          h.expect(overflow <= 0, `the view scrolls sideways by ${overflow} px`);

          const broken = template.replace('name = "review"', 'name = "Review"');
          const line = broken.split('\n').findIndex((l) => l.includes('"Review"')) + 1;
          await editor.fill(broken);
          const error = dialog.getByRole('button', { name: new RegExp(`^line ${line}, column \\d+ protocol\\[0\\]\\.name`) });
          await error.waitFor({ state: 'visible' });
          await h.screenshot(page, size, scheme, 'protocols-error');
          await h.expectNoAxeViolations(page, `with an error listed (${tag})`);
          await error.click();
          const caret = await page.evaluate(() => {
            const t = document.activeElement;
            return t && t.id === 'pf-text' ? t.value.slice(0, t.selectionStart).split('\n').length : -1;
          });
          h.expect(caret === line, `the caret is on line ${caret}, not ${line}`);
          await editor.fill(template);
          await dialog.getByText('The file loads.').waitFor();
          h.expect((await dialog.locator('.pf-error').count()) === 0, 'the error list is empty once fixed');
          await dialog.getByRole('button', { name: 'Close the protocol files', exact: true }).click();
          await dialog.waitFor({ state: 'hidden' });
          return errors;
        } finally {
          await context.close();
        }
      });
    }
  }
}

/** Opens the Protocols view and starts a new file: the dialog, its editor
 * and the template the editor holds. */
async function newFile(page) {
  await page.getByRole('button', { name: 'Protocols', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Protocol files' });
  await dialog.waitFor({ state: 'visible' });
  await dialog.getByRole('button', { name: 'New file', exact: true }).click();
  const editor = dialog.getByRole('textbox', { name: 'File text' });
  await editor.waitFor({ state: 'visible' });
  return { dialog, editor, template: await editor.inputValue() };
}

/** The message types of the diagram's arrows. */
const arrowTypes = (page) => page.locator('svg.diagram g.msg').evaluateAll((gs) => gs.map((g) => g.textContent.split(' [')[0]));

export function registerRun(test, h) {
  const sizes = [
    { width: 1440, height: 900 },
    { width: 768, height: 1024 },
    { width: 390, height: 844 },
  ];
  for (const size of sizes) {
    for (const scheme of ['light', 'dark']) {
      const tag = `${size.width}x${size.height} ${scheme}`;
      test(`${tag}: a new protocol file is written, fixed, run, explored with one fault, its counterexample opened and its link opened in a fresh page, axe clean`, async (browser) => {
        const { context, page, errors } = await h.openPage(browser, size, scheme);
        let fresh = null;
        try {
          await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
          const { dialog, editor, template } = await newFile(page);
          await dialog.getByText('The file loads.').waitFor();
          const run = dialog.getByRole('button', { name: 'Run the team', exact: true });
          const explore = dialog.getByRole('button', { name: 'Explore the team', exact: true });
          // An error: listed with its line; Run and Explore wait, saying why.
          const broken = template.replace('name = "review"', 'name = "Review"');
          const line = broken.split('\n').findIndex((l) => l.includes('"Review"')) + 1;
          await editor.fill(broken);
          await dialog.getByRole('button', { name: new RegExp(`^line ${line}, column \\d+ protocol\\[0\\]\\.name`) }).waitFor();
          h.expect(await run.isDisabled() && await explore.isDisabled(), 'Run and Explore are enabled while the file has an error');
          const why = await dialog.locator('#pf-run-why').innerText();
          h.expect(/^Fix the .*below to run the team\.$/.test(why), `no reason beside Run: ${why}`);
          await editor.fill(template);
          await dialog.getByText('The file loads.').waitFor();
          await run.click();
          await dialog.waitFor({ state: 'hidden' });
          await h.runEnded(page);
          const arrows = await arrowTypes(page);
          h.expect(arrows.includes('review_request') && arrows.includes('review_response'), `the file's arrows are not drawn: ${arrows}`);
          const badges = await page.locator('svg.diagram g.badge.fsm text').allTextContents();
          h.expect(badges.join() === 'approved', `the FSM badge is not approved: ${badges}`);
          h.expect((await page.getByText('The trace cannot be replayed.').count()) === 0, 'the panels cannot replay the file\'s run');
          h.expect((await page.getByText('Protocol check (0)', { exact: true }).count()) === 1, 'the checker finds something in a clean run');
          await h.screenshot(page, size, scheme, 'protocols-run');
          await h.expectNoAxeViolations(page, `with a file's run (${tag})`);

          // Explore it with one fault: the panel is set on the file's team.
          await page.getByRole('button', { name: 'Protocols', exact: true }).click();
          await explore.click();
          await dialog.waitFor({ state: 'hidden' });
          await page.locator('section.explore').waitFor({ state: 'visible' });
          const scenario = page.getByRole('combobox', { name: 'Scenario to explore' });
          h.expect((await scenario.inputValue()) === 'review-team', `the panel is not on the file's team: ${await scenario.inputValue()}`);
          const faults = page.getByRole('spinbutton', { name: 'Faults per run' });
          await faults.fill('1');
          await faults.dispatchEvent('change');
          await page.getByRole('button', { name: 'Start', exact: true }).click();
          await page.waitForFunction(() => {
            const s = document.querySelector('.explore-status [role=status]');
            return s && !/^(Searching|Shrinking)/.test(s.textContent) && !document.querySelector('.verdicts[aria-busy=true]');
          }, null, { timeout: 120_000 });
          const done = await page.locator('.explore-status [role=status]').textContent();
          h.expect(done.startsWith('Done: every run'), `the search did not finish complete: ${done}`);
          const own = await page.locator('.verdict[data-file-property=every_review_settles] .verdict-badge').textContent();
          h.expect(own === 'holds', `the file's own property: ${own}`);
          const lost = page.locator('.verdict[data-property=no_answer_lost]');
          h.expect((await lost.locator('.verdict-badge').textContent()) === 'fails', 'a dropped answer is not found');
          await h.screenshot(page, size, scheme, 'protocols-explored');
          await h.expectNoAxeViolations(page, `with a file's verdicts (${tag})`);
          await lost.getByRole('button', { name: /^Open counterexample of no_answer_lost/ }).click();
          await h.closeDrawer(page, size, 'Setup');
          const card = page.getByRole('region', { name: 'Broken: always no_answer_lost' });
          await card.waitFor({ state: 'visible' });
          const [at] = await h.shownOf(page);
          const found = await arrowTypes(page);
          h.expect(found.includes('review_request'), `the counterexample is not the file's team: ${found}`);
          await h.screenshot(page, size, scheme, 'protocols-counterexample');
          await h.expectNoAxeViolations(page, `with a file's counterexample (${tag})`);

          // Its link, in a fresh page (a browser of its own: no files yet).
          const href = await card.getByRole('link', { name: 'Link to this run' }).getAttribute('href');
          const opened = await h.openPage(browser, size, scheme);
          await opened.page.close();
          fresh = { context: opened.context, page: await opened.context.newPage(), errors: opened.errors };
          fresh.page.on('pageerror', (err) => fresh.errors.push(`page error: ${err.message}`));
          fresh.page.on('console', (msg) => {
            if (msg.type() === 'error') fresh.errors.push(`console error: ${msg.text()}`);
          });
          await fresh.page.goto(href, { waitUntil: 'load' });
          await fresh.page.getByRole('region', { name: 'Broken: always no_answer_lost' }).waitFor({ state: 'visible' });
          h.expect((await h.shownOf(fresh.page))[0] === at, 'the link does not reopen the run at the same event');
          h.expect(JSON.stringify(await arrowTypes(fresh.page)) === JSON.stringify(found), 'the link does not reopen the same run');
          await fresh.page.getByRole('button', { name: 'Protocols', exact: true }).click();
          const again = fresh.page.getByRole('dialog', { name: 'Protocol files' });
          await again.getByRole('alert').filter({ hasText: 'review-team came with the run on screen and was added to your files.' }).waitFor();
          h.expect((await again.locator('.pf-mine .pf-item').allTextContents()).join() === 'review-team', 'the file is not among the user\'s own');
          h.expect((await again.getByRole('textbox', { name: 'File text' }).inputValue()) === template, 'the file on show is not the one shared');
          await h.screenshot(fresh.page, size, scheme, 'protocols-shared');
          await h.expectNoAxeViolations(fresh.page, `with a shared file's view (${tag})`);
          return errors.concat(fresh.errors);
        } finally {
          if (fresh) await fresh.context.close();
          await context.close();
        }
      });
    }
  }

  // A request answered by hand with the protocol's own typed fields: the
  // template's review, which alice never answers, its answer given a
  // required enum and a bool beside the comment.
  for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    for (const scheme of ['light', 'dark']) {
      const tag = `${size.width}x${size.height} ${scheme}`;
      test(`${tag}: a file's request is answered by hand with a control per field of its answer, a required one enforced first, axe clean`, async (browser) => {
        const { context, page, errors } = await h.openPage(browser, size, scheme);
        try {
          await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
          const { dialog, editor, template } = await newFile(page);
          const file = template
            .replace('response_fields = [{ name = "comment", type = "string", content = true }]',
              'response_fields = [{ name = "comment", type = "string", content = true },\n' +
              '  { name = "severity", type = "enum", values = ["minor", "major"], required = true, description = "How bad the change is." },\n' +
              '  { name = "urgent", type = "bool" }]')
            .replace('deadline_ms = 30000\n', '')
            .replace('retries = 1\n', '')
            .replace('scripted = { answer = "approve" }', 'scripted = { answer = "never" }');
          await editor.fill(file);
          await dialog.getByText('The file loads.').waitFor();
          await dialog.getByRole('button', { name: 'Run the team', exact: true }).click();
          await dialog.waitFor({ state: 'hidden' });
          await h.runEnded(page);
          await h.openDrawer(page, size, 'Panels');
          const form = page.getByRole('group', { name: /^Answer [0-9a-f]{8} as alice$/ });
          await form.scrollIntoViewIfNeeded();
          const severity = form.getByRole('combobox', { name: 'severity' });
          const urgent = form.getByRole('checkbox', { name: 'urgent' });
          const comment = form.getByRole('textbox', { name: 'comment (optional)' });
          h.expect((await severity.locator('option').allTextContents()).join() === 'Choose…,minor,major', 'the enum\'s values are not its options');
          await comment.fill('rename the helper');
          await urgent.check();
          await form.getByRole('button', { name: 'Approve as alice', exact: true }).click();
          await form.getByRole('alert').filter({ hasText: 'Fill in severity: this answer needs it.' }).waitFor();
          h.expect((await comment.inputValue()) === 'rename the helper' && await urgent.isChecked(), 'what was typed is lost');
          await h.screenshot(page, size, scheme, 'answer-form-refused');
          await h.expectNoAxeViolations(page, `with the answer form's problem listed (${tag})`);
          await severity.selectOption('major');
          await h.screenshot(page, size, scheme, 'answer-form');
          await form.getByRole('button', { name: 'Approve as alice', exact: true }).click();
          await form.waitFor({ state: 'detached' });
          const badges = await page.locator('svg.diagram g.badge.fsm text').allTextContents();
          h.expect(badges.join() === 'approved', `the review is not approved: ${badges}`);
          const head = page.locator('.request-head').first();
          await head.scrollIntoViewIfNeeded();
          await head.click();
          const fields = page.locator('.said-fields[data-type=review_response] li');
          await fields.first().waitFor();
          const listed = (await fields.allTextContents()).join();
          h.expect(listed === 'comment: rename the helper,severity: major,urgent: true', `the answer's fields: ${listed}`);
          await h.screenshot(page, size, scheme, 'answer-fields');
          await h.expectNoAxeViolations(page, `with the answer's fields listed (${tag})`);
          return errors;
        } finally {
          await context.close();
        }
      });
    }
  }

  test('1440x900 light: a protocol file of the gallery runs and is searched in one click, its counterexample opened in the file\'s words, axe clean', async (browser) => {
    const size = { width: 1440, height: 900 };
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await h.openTools(page, size);
      await page.getByRole('button', { name: 'Run and search: Two teammates own the same task', exact: true }).click();
      const card = page.getByRole('region', { name: "The file's property always one_owner_per_task breaks in this run" });
      await card.waitFor({ state: 'visible', timeout: 120_000 });
      const text = await card.innerText();
      h.expect(/no fault, \d+ choices/.test(text), `the card does not count the run: ${text}`);
      h.expect((await page.getByText('The trace cannot be replayed.').count()) === 0, 'the panels cannot replay the opened run');
      const own = await page.locator('.verdict[data-file-property=one_owner_per_task] .verdict-badge').textContent();
      h.expect(own === 'fails', `the file's own property: ${own}`);
      const [at, total] = await h.shownOf(page);
      h.expect(at >= 1 && at <= total && (await page.locator('svg.diagram g.msg').count()) >= 2, `the counterexample is not on the diagram: ${at} of ${total}`);
      await h.screenshot(page, size, 'light', 'gallery-file');
      await h.expectNoAxeViolations(page, 'with a file gallery entry opened');
      return errors;
    } finally {
      await context.close();
    }
  });
}
