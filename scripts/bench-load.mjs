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
      performance.mark('bench-load: run enabled');
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
};

// BENCH_TRACE=PREFIX: the last load of each profile is traced (the first
// meets a cold browser), kept in PREFIX.PROFILE.json for Chromium's
// Performance panel, and what it did until Run was enabled is printed
// (loadTimeline).
const traceTo = process.env.BENCH_TRACE || '';
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'v8.wasm', 'disabled-by-default-v8.wasm.detailed', 'loading', 'toplevel'];

// What a traced load did until Run was enabled (the mark `bench-load: run
// enabled`), in ms after the navigation started:
// - the page's own requests, each sent and finished (the chain from the
//   HTML to the main module, and what else loads before Run);
// - when the main module's compilation started (before its download
//   finished: compiled while streaming) and when the glue first called
//   into it (FunctionCall);
// - what does not depend on the machine's load: how many wasm functions
//   were compiled (V8 compiles a function when it first runs, so this is
//   the code the start-up ran) and their bytes;
// - the renderer main thread's time by event (self time; the 10 largest).
function loadTimeline(events) {
  const mark = events.find((e) => e.name === 'bench-load: run enabled');
  if (!mark) return '          (no run-enabled mark in the trace)';
  const pid = mark.pid;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === pid);
  const nav = events.find((e) => e.pid === pid && e.name === 'navigationStart');
  const start = nav.ts;
  const end = mark.ts;
  const at = (us) => ((us - start) / 1000).toFixed(1).padStart(7);
  const ms = (us) => (us / 1000).toFixed(1).padStart(7);
  const lines = [`          until Run is enabled (${at(end)} ms after the navigation started):`];
  const urls = new Map();
  for (const e of events) {
    if (e.name === 'ResourceSendRequest' && e.args.data.url.startsWith(base)) urls.set(e.args.data.requestId, [e.ts, e.args.data.url.replace(base, '/'), null]);
  }
  for (const e of events) {
    if (e.name === 'ResourceFinish' && urls.has(e.args.data.requestId)) urls.get(e.args.data.requestId)[2] = e.ts;
  }
  for (const [sent, url, done] of [...urls.values()].filter(([sent]) => sent <= end).sort((x, y) => x[0] - y[0])) {
    lines.push(`            ${at(sent)} → ${done ? at(done) : '   (after)'} ms  ${url}`);
  }
  const inLoad = (e) => e.pid === pid && e.ts >= start && e.ts <= end;
  const compile = events.find((e) => inLoad(e) && e.name === 'v8.wasm.compileConsume');
  if (compile) lines.push(`            ${at(compile.ts)} ms  the main module's compilation starts`);
  const call = events
    .filter((e) => inLoad(e) && e.tid === main?.tid && e.name === 'FunctionCall' && e.args?.data?.url?.startsWith(base))
    .reduce((longest, e) => (longest && longest.dur >= e.dur ? longest : e), null);
  if (call) lines.push(`            ${at(call.ts)} ms  the page starts: the glue's longest call (${ms(call.dur).trim()} ms)`);
  const compiled = events.filter((e) => inLoad(e) && e.name === 'wasm.CompileBaseline');
  const bytes = compiled.reduce((sum, e) => sum + (e.args?.bodySize || 0), 0);
  lines.push(`            wasm functions run (compiled) before Run: ${compiled.length}, ${bytes} body bytes`);
  const onMain = events.filter((e) => inLoad(e) && e.tid === main?.tid && e.ph === 'X').sort((x, y) => x.ts - y.ts || y.dur - x.dur);
  const self = new Map();
  let tasks = 0;
  const stack = [];
  for (const e of onMain) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    if (e.name === 'RunTask' && stack.length === 0) tasks += e.dur;
    if (stack.length) {
      const parent = stack[stack.length - 1];
      self.set(parent.name, (self.get(parent.name) || 0) - Math.min(e.dur, parent.ts + parent.dur - e.ts));
    }
    self.set(e.name, (self.get(e.name) || 0) + e.dur);
    stack.push(e);
  }
  lines.push(`            main thread: top-level tasks ${ms(tasks).trim()} ms; by event (self time):`);
  [...self.entries()]
    .filter(([name]) => name !== 'RunTask')
    .sort((x, y) => y[1] - x[1])
    .slice(0, 10)
    .forEach(([name, us]) => lines.push(`            ${ms(us)} ms  ${name}`));
  return lines.join('\n');
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function loadOnce(profile, traced) {
  const context = await browser.newContext({ viewport: profile.viewport, locale: 'en-US' });
  const page = await context.newPage();
  if (traced) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
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
  const trace = traced ? await browser.stopTracing() : null;
  await context.close();
  return { usable, bytes, list, trace };
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
  for (let i = 0; i < runs; i++) results.push(await loadOnce(profile, traceTo && i === runs - 1));
  const t = results.map((r) => r.usable);
  const kb = results.map((r) => r.bytes / 1000);
  console.log(
    `${name.padEnd(8)}  ${Math.min(...t).toFixed(0).padStart(14)}  ${median(t).toFixed(0).padStart(6)}  (${t.map((x) => x.toFixed(0)).join(', ')})`.padEnd(60) +
      `${Math.min(...kb).toFixed(1).padStart(20)}  ${median(kb).toFixed(1).padStart(6)}`,
  );
  for (const r of results[0].list) {
    console.log(`          ${(r.bytes / 1000).toFixed(1).padStart(8)} KB  ${(r.encoding || '-').padEnd(4)}  ${r.url.replace(base, '/')}`);
  }
  const traced = results[runs - 1].trace;
  if (traced) {
    const path = `${traceTo}.${name}.json`;
    (await import('node:fs')).writeFileSync(path, traced);
    console.log(`          the last load's trace: ${path}`);
    console.log(loadTimeline(JSON.parse(traced.toString()).traceEvents));
  }
}
await browser.close();
