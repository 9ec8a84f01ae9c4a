// The first-load benchmark (issue 28 §2): opens the page in headless
// Chromium with a fresh cache, per profile, and reports the bytes on the
// wire and the time until the page is usable (its Run button is in the page
// and enabled), from the navigation's start.
//
// Profiles: `none` (no throttling, a 1400x900 window) and `mobile`
// (Lighthouse's mobile profile: 150 ms round trip, 1.6 Mbit/s down,
// 750 kbit/s up, the CPU 4x slower, through the DevTools protocol's
// Network.emulateNetworkConditions and Emulation.setCPUThrottlingRate; a
// 390x844 window). Each profile is loaded BENCH_LOAD_RUNS times (3), each
// in a new browser context with the cache disabled; min and median are
// printed, and the first load's requests one by one.
//
// Bytes on the wire: the sum of Network.loadingFinished's encodedDataLength
// over every request of the load (the compressed body and the response
// headers), counted once the page is usable and nothing is in flight.
//
// Usage: E2E_BASE_URL=http://127.0.0.1:PORT/ node scripts/bench-load.mjs
// (scripts/bench-browser.sh with BENCH_ONLY=load builds the page and serves
// it with scripts/bench-serve.mjs). Needs playwright-core (tests/e2e's).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../tests/e2e/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = process.env.E2E_BASE_URL || 'http://127.0.0.1:8099/';
const runs = Number(process.env.BENCH_LOAD_RUNS || 3);
const only = (process.env.BENCH_LOAD_PROFILES || 'none,mobile').split(',');
const profiles = {
  none: { viewport: { width: 1400, height: 900 } },
  mobile: {
    viewport: { width: 390, height: 844 },
    network: { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
    cpu: 4,
  },
};

// Records, in the page, when the Run button is first there and enabled
// (performance.now(): ms since the navigation started).
const watchRun = () => {
  const runButton = () => {
    const prompt = document.getElementById('prompt');
    const box = prompt && prompt.closest('section');
    const b = box && box.querySelector('button.primary');
    return b && !b.disabled && b.textContent.trim() === 'Run' ? b : null;
  };
  const seen = () => {
    if (window.__runEnabledAt === undefined && runButton()) {
      window.__runEnabledAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
};

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function loadOnce(profile) {
  const context = await browser.newContext({ viewport: profile.viewport, locale: 'en-US' });
  const page = await context.newPage();
  await page.addInitScript(watchRun);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (profile.network) await cdp.send('Network.emulateNetworkConditions', profile.network);
  if (profile.cpu) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url, done: false, bytes: 0, encoding: '' }));
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.encoding = e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || '';
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { done: true, bytes: e.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.done = true;
  });
  await page.goto(base, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__runEnabledAt !== undefined, null, { timeout: 120_000, polling: 100 });
  const usable = await page.evaluate(() => window.__runEnabledAt);
  // Nothing in flight any more (bounded: 30 s).
  const deadline = Date.now() + 30_000;
  while ([...requests.values()].some((r) => !r.done) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const list = [...requests.values()].filter((r) => !r.url.startsWith('data:'));
  const bytes = list.reduce((sum, r) => sum + r.bytes, 0);
  await context.close();
  return { usable, bytes, list };
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`first load of ${base}, ${runs} loads per profile, fresh cache each`);
console.log('profile   usable-ms: min  median  (each)                 on-the-wire-KB: min  median');
for (const name of only) {
  const profile = profiles[name];
  if (!profile) throw new Error(`unknown profile ${name} (none, mobile)`);
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await loadOnce(profile));
  const t = results.map((r) => r.usable);
  const kb = results.map((r) => r.bytes / 1000);
  console.log(
    `${name.padEnd(8)}  ${Math.min(...t).toFixed(0).padStart(14)}  ${median(t).toFixed(0).padStart(6)}  (${t.map((x) => x.toFixed(0)).join(', ')})`.padEnd(60) +
      `${Math.min(...kb).toFixed(1).padStart(20)}  ${median(kb).toFixed(1).padStart(6)}`,
  );
  for (const r of results[0].list) {
    console.log(`          ${(r.bytes / 1000).toFixed(1).padStart(8)} KB  ${(r.encoding || '-').padEnd(4)}  ${r.url.replace(base, '/')}`);
  }
}
await browser.close();
