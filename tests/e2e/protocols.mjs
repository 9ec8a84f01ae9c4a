// End-to-end tests of the Protocols view (issue 27 items 1-3): opened from
// the header by its name, New file starts from the template and loads, an
// error typed is listed with its line and a click puts the caret there,
// fixing it clears the list; the view fits the screen (nothing scrolls
// sideways) and axe finds no violation, at each size and theme.
// Registered by run.mjs.

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
          await page.getByRole('button', { name: 'Protocols', exact: true }).click();
          const dialog = page.getByRole('dialog', { name: 'Protocol files' });
          await dialog.waitFor({ state: 'visible' });
          await dialog.getByRole('button', { name: 'New file', exact: true }).click();
          const editor = dialog.getByRole('textbox', { name: 'File text' });
          await editor.waitFor({ state: 'visible' });
          const template = await editor.inputValue();
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
