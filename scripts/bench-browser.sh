#!/usr/bin/env bash
# The browser benchmark: builds bench.html in release mode, serves it on
# loopback, opens it in headless Chromium (driven by playwright-core from
# npm) and prints what the page measured: time to first draw and median
# step time for traces of 1k and 10k events. Also prints the release bundle
# size of the app itself. Not part of the test suite: numbers, not verdicts.
# BENCH_ONLY=explore measures only the explorer (in the page's thread, and
# the Explore panel in 1 and 2 Web Workers with the page's frame times).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
./scripts/setup.sh

work=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

trunk build --release --dist "$work/bench" bench.html >/dev/null
trunk build --release --dist "$work/app" index.html >/dev/null

echo "== release bundle of the app (index.html)"
for f in "$work"/app/*.wasm "$work"/app/*.js; do
  printf '%-12s %8d bytes  %8d gzip\n' "${f##*.}" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)"
done

(cd "$work/bench" && exec python3 -m http.server 8097 --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
sleep 1

if [ ! -d "$work/pw/node_modules/playwright-core" ]; then
  (cd "$work" && mkdir -p pw && cd pw && npm install --silent --no-audit --no-fund playwright-core@1 >/dev/null)
fi
cat > "$work/pw/run.mjs" <<'JS'
import { chromium } from 'playwright-core';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto('http://127.0.0.1:8097/index.html' + (process.env.BENCH_ONLY === 'explore' ? '#explore' : ''));
await page.waitForFunction(() => document.title === 'bench done', null, { timeout: 540000 });
console.log(await page.textContent('#results'));
await browser.close();
JS
echo "== diagram benchmark (bench.html)"
node "$work/pw/run.mjs"
