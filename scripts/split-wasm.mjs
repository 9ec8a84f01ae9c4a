// Splits the release page's wasm into a main module and the modules its
// split points load when first used (src/ui/split.rs; issue 28 §2). Trunk
// has no step between cargo and wasm-bindgen, so this runs from Trunk's
// post_build hook (scripts/post-build.mjs) on what Trunk leaves behind:
//
//   1. the raw wasm cargo linked with --emit-relocs (build.rs), in
//      TARGET/wasm32-unknown-unknown/wasm-release/team-protocols.wasm,
//      is cut by wasm-split-cli (scripts/setup.sh installs it) into the
//      main module, one module per split point (and shared chunks), and
//      the JS that loads them (__wasm_split.js);
//   2. wasm-bindgen (--keep-lld-exports: the split modules link against
//      the main module's exports) makes the main module's JS glue, as
//      Trunk's own call does (same name, target web);
//   3. wasm-opt -Oz optimises every module (the main one with index.html's
//      data-wasm-opt-params, as Trunk would);
//   4. the staged glue and main wasm Trunk made are replaced, the other
//      modules added next to them, the staged HTML's integrity
//      attributes of the two replaced files updated, the loader preloaded
//      with the glue, and the HTML's start-up script made to compile the
//      main module while it downloads, before the glue has arrived. The loader and the
//      modules are named after Trunk's hashed name of the page
//      (team-protocols-HASH_split.js, team-protocols-HASH_chunk_8.wasm...),
//      so a new release never meets a cached module of an older one.
//
// Release builds of index.html only (TRUNK_PROFILE=release and a staged
// team-protocols-HASH_bg.wasm): `trunk serve` and the bench page are left
// alone (build.rs splits only that build). Fails loudly: a release dist
// with an unsplit page whose code imports __wasm_split.js would not load.
//
// Usage (Trunk sets the variables): node scripts/split-wasm.mjs
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BIN = 'team-protocols';
// What index.html's data-wasm-opt-params gives Trunk's wasm-opt for the main
// module. The split modules import the main module's memory, which is in
// use when they arrive: never --zero-filled-memory for them.
const MAIN_OPT = ['-Oz', '--low-memory-unused', '--zero-filled-memory'];
const SPLIT_OPT = ['-Oz', '--low-memory-unused'];

const staging = process.env.TRUNK_STAGING_DIR;
if (process.env.TRUNK_PROFILE !== 'release' || !staging) process.exit(0);
const staged = readdirSync(staging).find((f) => new RegExp(`^${BIN}-[0-9a-f]+_bg\\.wasm$`).test(f));
if (!staged) process.exit(0); // the bench page's build
const base = staged.slice(0, -'_bg.wasm'.length);

const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const sri = (path) => 'sha384-' + createHash('sha384').update(readFileSync(path)).digest('base64');

const meta = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
const raw = join(meta.target_directory, 'wasm32-unknown-unknown', 'wasm-release', `${BIN}.wasm`);
if (!existsSync(raw)) {
  console.error(`split-wasm: ${raw} is missing (was the page built with profile wasm-release?)`);
  process.exit(1);
}
const work = join(meta.target_directory, 'wasm-split', 'release');
rmSync(work, { recursive: true, force: true });
const splitDir = join(work, 'split');
const glueDir = join(work, 'bindgen');
mkdirSync(glueDir, { recursive: true });

// 1. Split.
run('wasm-split-cli', ['--target', 'web', '--out-name', base, raw, splitDir]);
const modules = readdirSync(splitDir).filter((f) => f.endsWith('.wasm') && f !== `${base}.wasm`);
if (modules.length === 0) {
  console.error('split-wasm: wasm-split-cli found no split point (is the wasm_split cfg on? see build.rs)');
  process.exit(1);
}

// 2. The main module's glue.
run('wasm-bindgen', ['--target=web', `--out-dir=${glueDir}`, `--out-name=${base}`, '--no-typescript', '--keep-lld-exports', '--no-demangle', join(splitDir, `${base}.wasm`)]);

// 4 (first half). What the staged HTML pins, before the files change.
const js = join(staging, `${base}.js`);
const wasm = join(staging, `${base}_bg.wasm`);
const before = [sri(js), sri(wasm)];
const unsplit = statSync(wasm).size;

// 3. Optimise into the staging directory, under the page's hashed name.
const named = (m) => `${base}_${m}`;
run('wasm-opt', [...MAIN_OPT, join(glueDir, `${base}_bg.wasm`), '-o', wasm]);
for (const m of modules) run('wasm-opt', [...SPLIT_OPT, join(splitDir, m), '-o', join(staging, named(m))]);
// The glue imports the loader as a JS module (the wasm's import names, the
// keys of its imports object, stay "./__wasm_split.js"); the loader
// fetches the modules by name.
const loader = `${base}_split.js`;
const glue = readFileSync(join(glueDir, `${base}.js`), 'utf8');
const renamedGlue = glue.split('from "./__wasm_split.js"').join(`from "./${loader}"`);
if (renamedGlue === glue) {
  console.error('split-wasm: the glue does not import ./__wasm_split.js (a new wasm-bindgen?)');
  process.exit(1);
}
writeFileSync(js, renamedGlue);
let link = readFileSync(join(splitDir, '__wasm_split.js'), 'utf8');
for (const m of modules) link = link.split(`"./${m}"`).join(`"./${named(m)}"`);
writeFileSync(join(staging, loader), link);
const snippets = join(glueDir, 'snippets');
if (existsSync(snippets)) run('cp', ['-r', snippets, staging]);

// 4. The staged HTML's integrity attributes follow the replaced files, the
// loader is preloaded next to the glue (the glue imports it: without the
// preload the browser asks for it only once the glue has arrived, a round
// trip the unsplit page did not wait), and the main module compiles from
// the start (issue 27: the first load no slower than the unsplit page's).
const after = [sri(js), sri(wasm)];
const gluePreload = new RegExp(`<link rel="modulepreload" href="([^"]*)${base}\\.js"[^>]*>`);
for (const html of readdirSync(staging).filter((f) => f.endsWith('.html'))) {
  const path = join(staging, html);
  let text = readFileSync(path, 'utf8');
  before.forEach((old, i) => {
    text = text.split(old).join(after[i]);
  });
  const preload = gluePreload.exec(text);
  if (!preload) {
    console.error(`split-wasm: ${html} has no modulepreload of ${base}.js (a new Trunk?)`);
    process.exit(1);
  }
  const loaderPreload = `<link rel="modulepreload" href="${preload[1]}${loader}" crossorigin="anonymous" integrity="${sri(join(staging, loader))}">`;
  text = text.replace(preload[0], preload[0] + loaderPreload);
  // Trunk's start-up script imports the glue, then has it fetch and
  // compile the main module: the compilation starts once the glue and the
  // loader have arrived and run, and when the module's download is already
  // over by then (a fast network) it is compiled after the download, not
  // while it streams. The main module's compilation starts first instead,
  // from the preloaded download (a fetch without integrity, as the glue's
  // own: one with it resolves only once the whole body is checked, which
  // is no streaming), and the glue instantiates the compiled module. If
  // that compilation fails (a host that serves wasm under another MIME
  // type, which compileStreaming refuses), the glue gets the module's URL
  // and loads it its own way, falling back as it does.
  const prefix = preload[1];
  const start = `import init, * as bindings from '${prefix}${base}.js';\nconst wasm = await init({ module_or_path: '${prefix}${base}_bg.wasm' });`;
  if (!text.includes(start)) {
    console.error(`split-wasm: ${html}'s start-up script is not Trunk's usual one (a new Trunk?)`);
    process.exit(1);
  }
  const early = [
    `const compiling = WebAssembly.compileStreaming(fetch('${prefix}${base}_bg.wasm')).catch(() => '${prefix}${base}_bg.wasm');`,
    `const bindings = await import('${prefix}${base}.js');`,
    'const wasm = await bindings.default({ module_or_path: await compiling });',
  ].join('\n');
  text = text.replace(start, early);
  writeFileSync(path, text);
}

const sizes = modules.map((m) => `${m} ${statSync(join(staging, named(m))).size}`).join(', ');
console.log(`split-wasm: ${base}_bg.wasm ${unsplit} -> ${statSync(wasm).size} bytes; later: ${sizes}`);
