#!/usr/bin/env bash
# The browser benchmark: builds bench.html in release mode, serves it on
# loopback, opens it in headless Chromium (driven by playwright-core from
# npm) and prints what the page measured: time to first draw and median
# step time for traces of 1k and 10k events. Also prints the release bundle
# size of the app itself. Not part of the test suite: numbers, not verdicts.
# BENCH_ONLY=explore measures only the explorer (in the page's thread, and
# the Explore panel in 1 and 2 Web Workers with the page's frame intervals),
# and records a Chromium trace to add up the main thread's work per frame
# while the workers search (p50, p95 and max per frame, the longest task);
# BENCH_TRACE=/path/trace.json keeps that trace. BENCH_ONLY=typing measures
# typing into the Protocols view's editor (see below). BENCH_ONLY=steps
# measures only the diagram, panels and scale rows (first draw, Back/Next,
# one part mounted at a time, the scale scenario per frame), without
# building the app's bundle; BENCH_STEPS_DIST=dir builds the benchmark page
# there (kept, for a profile) instead of a temporary directory.
# BENCH_ONLY=load measures the first load (see below).
# BENCH_PORT picks the loopback port of the benchmark page (8097).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
./scripts/setup.sh

work=$(mktemp -d)
trap '[ -z "${server:-}" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

# BENCH_ONLY=typing: the Protocols view's typing benchmark only
# (tests/e2e/typing.mjs: the longest main-thread task per keystroke while
# typing into a 500-line file), against the release page (BENCH_DIST=dir
# reuses a `trunk build --release` of index.html).
if [ "${BENCH_ONLY:-}" = typing ]; then
  dist=${BENCH_DIST:-$work/app}
  [ -n "${BENCH_DIST:-}" ] || trunk build --release --dist "$dist" index.html >/dev/null
  (cd "$dist" && exec python3 -m http.server 8098 --bind 127.0.0.1 >/dev/null 2>&1) &
  server=$!
  sleep 1
  E2E_BASE_URL=http://127.0.0.1:8098/ node tests/e2e/typing.mjs
  exit 0
fi

# BENCH_ONLY=load: the first-load benchmark only (scripts/bench-load.mjs:
# bytes on the wire and the time until Run is enabled, fresh cache, with no
# throttling and on Lighthouse's mobile profile, 3 loads each), against the
# release page served by scripts/bench-serve.mjs (gzip, or the precompressed
# .br/.gz files the release build writes). BENCH_DIST=dir reuses a
# `trunk build --release` of index.html; BENCH_LOAD_RUNS and
# BENCH_LOAD_PROFILES (none,mobile) pick the loads; BENCH_TRACE=PREFIX
# traces the last load of each profile and prints what it did until Run
# was enabled (its requests, when the main module compiled and the page
# started, the wasm functions it ran).
if [ "${BENCH_ONLY:-}" = load ]; then
  # Serves DIST and runs the benchmark on it once.
  load_bench() {
    node scripts/bench-serve.mjs "$1" "${BENCH_PORT:-0}" >"$work/serve.log" 2>&1 &
    server=$!
    url=""
    for _ in $(seq 1 100); do
      url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/serve.log" 2>/dev/null | head -n1 || true)
      [ -n "$url" ] && break
      sleep 0.1
    done
    [ -n "$url" ] || { echo "the load benchmark's server did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
    E2E_BASE_URL=$url node scripts/bench-load.mjs
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  }
  # BENCH_DISTS="A B": two (or more) release builds compared, alternated
  # BENCH_LOAD_ROUNDS times (8), each round loading each build in turn
  # (so a change in the machine's load meets both); one line per build
  # and round, then each build's median of its rounds' medians.
  if [ -n "${BENCH_DISTS:-}" ]; then
    rounds=${BENCH_LOAD_ROUNDS:-8}
    for round in $(seq 1 "$rounds"); do
      for d in $BENCH_DISTS; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        load_bench "$d" >"$work/one.txt"
        grep -E '^(none|mobile) ' "$work/one.txt" | sed "s|^|$d round $round (load $load): |" | tee -a "$work/rounds.txt"
      done
    done
    echo "median of the rounds' medians (ms until Run is enabled):"
    for d in $BENCH_DISTS; do
      for p in none mobile; do
        { grep -F "$d round" "$work/rounds.txt" || true; } | awk -v p="$p" '{for (i = 1; i < NF; i++) if ($i == p) {print $(i + 2); break}}' | sort -n |
          awk -v d="$d" -v p="$p" '{v[NR]=$1} END {if (NR) printf "  %-40s %-7s %s (%d rounds)\n", d, p, (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2), NR}'
      done
    done
    exit 0
  fi
  dist=${BENCH_DIST:-$work/app}
  [ -n "${BENCH_DIST:-}" ] || trunk build --release --dist "$dist" index.html >/dev/null
  load_bench "$dist"
  exit 0
fi

bench_dist=${BENCH_STEPS_DIST:-$work/bench}
trunk build --release --dist "$bench_dist" bench.html >/dev/null
if [ "${BENCH_ONLY:-}" != explore ] && [ "${BENCH_ONLY:-}" != steps ]; then
  trunk build --release --dist "$work/app" index.html >/dev/null
  echo "== release bundle of the app (index.html)"
  for f in "$work"/app/*.wasm "$work"/app/*.js; do
    printf '%-12s %8d bytes  %8d gzip\n' "${f##*.}" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)"
  done
fi

(cd "$bench_dist" && exec python3 -m http.server "${BENCH_PORT:-8097}" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
sleep 1

mkdir -p "$work/pw"
# The end-to-end tests' copy of playwright-core, when it is installed.
if [ -d tests/e2e/node_modules/playwright-core ]; then
  ln -s "$PWD/tests/e2e/node_modules" "$work/pw/node_modules"
fi
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
const onlyExplore = process.env.BENCH_ONLY === 'explore';
const onlySteps = process.env.BENCH_ONLY === 'steps';
// A Chromium trace of the page, to add up the main thread's work per frame
// while the Explore panel's workers search (only for the explorer run: the
// whole benchmark would make the trace too large).
if (onlyExplore) {
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.user_timing', 'toplevel'],
  });
}
await page.goto(`http://127.0.0.1:${process.env.BENCH_PORT || 8097}/index.html` + (onlyExplore ? '#explore' : onlySteps ? '#steps' : ''));
await page.waitForFunction(() => document.title === 'bench done', null, { timeout: 540000 });
console.log(await page.textContent('#results'));
if (onlyExplore) {
  const trace = await browser.stopTracing();
  // BENCH_TRACE=file keeps the trace (it opens in Chromium's Performance panel).
  if (process.env.BENCH_TRACE) (await import('node:fs')).writeFileSync(process.env.BENCH_TRACE, trace);
  const events = JSON.parse(trace.toString()).traceEvents;
  console.log(frameWork(events));
}
await browser.close();

// For each search marked `explore-workers <scenario> <n> start`/`end` by the
// page: a frame starts at the main thread's first animation-frame callback
// (FireAnimationFrame; callbacks less than 8 ms apart belong to one frame);
// a frame's work is the time the main thread spent in top-level tasks
// (RunTask: script, message handlers, style, layout, paint, garbage
// collection) from its start to the next frame's. The first frame (Start:
// the loaded workers are sent their slices, or, for the "at once" search,
// the workers are started) is shown apart. So are the frames from the one in
// which the page read the last worker's report (its own user-timing mark
// `explore: last report read`) to the end (the verdicts drawn): the
// workers have stopped by then; for those frames the longest work and its
// CPU are shown. The rest are the frames while the workers run. Also each
// worker's CPU time (and wall time) in its tasks: on a busy machine two
// workers may not get two cores, and then their wall seconds do not show
// the work shared.
function frameWork(events) {
  const pct = (v, p) => { const s = [...v].sort((a, b) => a - b); return s.length ? s[Math.round((s.length - 1) * p)] : NaN; };
  const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-').padStart(11);
  const marks = events.filter((e) => e.cat && e.cat.includes('blink.user_timing') && e.name.startsWith('explore-workers '));
  const names = {};
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names[`${e.pid}:${e.tid}`] = e.args.name;
  const lines = ['main-thread work per frame (Chromium trace): scenario  workers  frames  running: work-p50-ms  work-p95-ms  work-max-ms  cpu-p95-ms  longest-task-ms  busy-%  first-frame-ms  after-last-report: max-work-ms (cpu)  worker-cpu-ms (wall-ms)'];
  for (const start of marks.filter((m) => m.name.endsWith(' start'))) {
    const label = start.name.slice(0, -' start'.length);
    const end = marks.find((m) => m.name === label + ' end' && m.ts >= start.ts);
    if (!end) continue;
    const on = (e) => e.pid === start.pid && e.tid === start.tid && e.ts >= start.ts && e.ts <= end.ts;
    const callbacks = events.filter((e) => on(e) && e.name === 'FireAnimationFrame' && e.ph === 'X').map((e) => e.ts).sort((a, b) => a - b);
    const frames = [];
    for (const t of callbacks) if (!frames.length || t - frames[frames.length - 1] >= 8000) frames.push(t);
    frames.push(end.ts);
    // Top-level tasks, overlapping ones merged (a task may be recorded under two categories).
    const runTasks = events.filter((e) => on(e) && e.ph === 'X' && e.name === 'RunTask' && e.dur > 0);
    const tasks = runTasks.map((e) => [e.ts, e.ts + e.dur]).sort((a, b) => a[0] - b[0]);
    // The CPU the main thread's tasks used in each frame (a task's thread time, by its start): a
    // task's wall time also counts the time the system gave its core to another thread.
    const cpuIn = (a, b) => runTasks.reduce((m, e) => (e.ts >= a && e.ts < b ? m + (e.tdur || 0) : m), 0) / 1000;
    // Each worker's CPU and wall time in its tasks over the window.
    const workerTasks = {};
    for (const e of events) {
      if (e.ph !== 'X' || e.name !== 'RunTask' || e.ts < start.ts || e.ts > end.ts) continue;
      if (names[`${e.pid}:${e.tid}`] !== 'DedicatedWorker thread') continue;
      const w = (workerTasks[`${e.pid}:${e.tid}`] ||= { cpu: 0, wall: 0 });
      w.cpu += (e.tdur || 0) / 1000;
      w.wall += e.dur / 1000;
    }
    const workersCpu = Object.values(workerTasks).filter((w) => w.cpu > 20).map((w) => `${w.cpu.toFixed(0)} (${w.wall.toFixed(0)})`).join(', ');
    const merged = [];
    for (const t of tasks) {
      const last = merged[merged.length - 1];
      if (last && t[0] <= last[1]) last[1] = Math.max(last[1], t[1]); else merged.push([...t]);
    }
    const busyIn = (a, b) => merged.reduce((m, [s, e]) => (e > a && s < b ? m + Math.min(e, b) - Math.max(s, a) : m), 0) / 1000;
    const work = [];
    for (let i = 0; i + 1 < frames.length; i++) work.push(busyIn(frames[i], frames[i + 1]));
    const first = busyIn(start.ts, frames[0] ?? end.ts) + (work.length ? work[0] : 0);
    // The frame in which the page read the last report: from it on, the search is over.
    const read = events.find((e) => e.name === 'explore: last report read' && e.ts >= start.ts && e.ts <= end.ts);
    // Without the mark (an older page), the last frame alone.
    let over = read ? frames.findIndex((t) => t > read.ts) - 1 : work.length - 1;
    if (over < 1) over = 1;
    const running = work.slice(1, over);
    const finishing = work.slice(over);
    const cpu = [];
    for (let i = 1; i < over; i++) cpu.push(cpuIn(frames[i], frames[i + 1]));
    const finishCpu = [];
    for (let i = over; i + 1 < frames.length; i++) finishCpu.push(cpuIn(frames[i], frames[i + 1]));
    const inRunning = merged.filter(([s]) => running.length && s >= frames[1] && s < frames[over]);
    const longest = inRunning.reduce((m, [s, e]) => Math.max(m, (e - s) / 1000), 0);
    const span = running.length ? (frames[over] - frames[1]) / 1000 : NaN;
    const busy = (running.reduce((a, b) => a + b, 0) / span) * 100;
    const lastFrame = finishing.length ? `${Math.max(...finishing).toFixed(2)} (${Math.max(...finishCpu, 0).toFixed(2)})` : '-';
    const [, scenario, workers, ...note] = label.split(' ');
    const name = note.length ? `${scenario} (${note.join(' ')})` : scenario;
    lines.push(`${name.padStart(52)}  ${workers.padStart(7)}  ${String(running.length).padStart(6)}  ${ms(pct(running, 0.5)).padStart(21)}  ${ms(pct(running, 0.95))}  ${ms(Math.max(...running))}  ${ms(pct(cpu, 0.95)).slice(1)}  ${longest.toFixed(2).padStart(15)}  ${busy.toFixed(1).padStart(6)}  ${first.toFixed(2).padStart(14)}  ${lastFrame.padStart(37)}  ${workersCpu}`);
  }
  return lines.join('\n');
}
JS
echo "== diagram benchmark (bench.html)"
node "$work/pw/run.mjs"
