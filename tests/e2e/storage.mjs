// End-to-end test of long runs kept in browser storage (issue 28, "Long
// runs are kept"): a 100,000-event trace imported into the release page is
// kept in IndexedDB, and after a reload the page shows it again, whole, at
// the same cursor with the same caption. The run is written by the page
// itself (the import), read back from IndexedDB by the test before the
// reload, so the reload never races the write. Every wait is on a condition
// the page shows, bounded by playwright's timeout. And a protocol file's
// team run, whose trace records the file, comes back after a reload too.
// Registered by run.mjs.

/** Events in the imported run. */
const EVENTS = 100_000;

/** A valid trace of `EVENTS` events, as the page exports one: the lead
 * spawns bob, then messages him and he reads each message. */
function longTrace() {
  const entries = [{ seq: 0, time: 0, event: { kind: 'member_spawned', name: 'bob', role: 'coder' } }];
  while (entries.length < EVENTS) {
    const seq = entries.length;
    if (seq % 2 === 1) {
      const message = { type: 'message', from: 'lead', to: 'bob', content: `status ${seq}?`, timestamp: seq };
      entries.push({ seq, time: seq, event: { kind: 'message_sent', message } });
    } else {
      entries.push({ seq, time: seq, event: { kind: 'inbox_drained', agent: 'bob', message_ids: [seq - 1] } });
    }
  }
  return JSON.stringify({ version: 1, team_name: 'long', seed: 7, entries });
}

/** True once the run kept in IndexedDB as the current one holds `n`
 * events: run in the page, reading the page's own database. */
function storedWhole(n) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('team-protocols');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('kv')) {
        db.close();
        resolve(false);
        return;
      }
      const get = db.transaction('kv', 'readonly').objectStore('kv').get('team-protocols.current');
      get.onerror = () => reject(get.error);
      get.onsuccess = () => {
        db.close();
        const text = get.result;
        resolve(typeof text === 'string' && JSON.parse(JSON.parse(text).trace).entries.length === n);
      };
    };
  });
}

/** True once the diagram shows `shown` of `total` events. */
function showing([shown, total]) {
  const m = /showing (\d+) of (\d+) events/.exec(document.querySelector('svg.diagram')?.getAttribute('aria-label') || '');
  return Boolean(m) && Number(m[1]) === shown && Number(m[2]) === total;
}

/** What the page shows of the cursor: the diagram's "showing N of M", the
 * position counter, the caption's step and title. */
async function cursorShown(page, h) {
  const [shown, total] = await h.shownOf(page);
  const text = async (selector) => (await page.locator(selector).first().innerText()).trim();
  return { shown, total, position: await text('.position'), step: await text('.caption-step'), title: await text('.caption-box .caption-title') };
}

export function register(test, h) {
  const size = { name: 'desktop', width: 1440, height: 900 };
  test('1440x900 light: a 100,000-event run imported survives a reload, at the same cursor with the same caption', async (browser) => {
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await h.openTools(page, size);
      const trace = longTrace();
      await page.getByLabel('Import a JSON trace').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(trace) });
      await page.waitForFunction(showing, [EVENTS, EVENTS], { timeout: 120_000 });
      const before = await cursorShown(page, h);
      // The page keeps the run in IndexedDB: the reload waits until it is
      // written whole.
      await page.waitForFunction(storedWhole, EVENTS, { polling: 500, timeout: 120_000 });
      await page.reload();
      await page.waitForFunction(showing, [EVENTS, EVENTS], { timeout: 120_000 });
      const after = await cursorShown(page, h);
      h.expect(JSON.stringify(after) === JSON.stringify(before), `after the reload the page shows ${JSON.stringify(after)}, before it ${JSON.stringify(before)}`);
      const banner = await page.locator('.banner-error').allInnerTexts();
      h.expect(banner.length === 0, `a storage error after the reload: ${banner.join(' | ')}`);
      // The run restored steps back like the one imported.
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.waitForFunction(showing, [EVENTS - 1, EVENTS], { timeout: 30_000 });
      const back = await cursorShown(page, h);
      h.expect(back.step !== before.step, `Back left the caption at '${back.step}'`);
    } finally {
      await context.close();
    }
    return errors;
  });

  // A run under a protocol file of its own records the file in its trace;
  // after a reload the file is loaded through the loader's split point
  // (the first screen's module does not hold it) before the run is read.
  test('1440x900 light: a protocol file\'s team run survives a reload, its file loaded when the run is read', async (browser) => {
    const { context, page, errors } = await h.openPage(browser, size, 'light');
    try {
      await page.getByRole('combobox', { name: 'Speed' }).selectOption('4');
      await page.getByRole('button', { name: 'Protocols', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Protocol files' });
      await dialog.getByRole('button', { name: 'New file', exact: true }).click();
      await dialog.getByText('The file loads.').waitFor();
      await dialog.getByRole('button', { name: 'Run the team', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await h.runEnded(page);
      const [shown, total] = await h.shownOf(page);
      const arrows = await arrowTypes(page);
      h.expect(arrows.includes('review_request'), `the file's arrows are not drawn: ${arrows}`);
      await page.waitForFunction(storedWhole, total, { polling: 250, timeout: 60_000 });
      await page.reload();
      await page.waitForFunction(showing, [shown, total], { timeout: 60_000 });
      const again = await arrowTypes(page);
      h.expect(JSON.stringify(again) === JSON.stringify(arrows), `after the reload the arrows are ${again}, before ${arrows}`);
      const banner = await page.locator('.banner-error').allInnerTexts();
      h.expect(banner.length === 0, `an error after the reload: ${banner.join(' | ')}`);
    } finally {
      await context.close();
    }
    return errors;
  });
}

/** The message types of the diagram's arrows. */
const arrowTypes = (page) => page.locator('svg.diagram g.msg').evaluateAll((gs) => gs.map((g) => g.textContent.split(' [')[0]));
