// Trunk's post_build hook (Trunk.toml): in a release build, writes FILE.br
// (brotli, quality 11) and FILE.gz (gzip, level 9) next to each
// compressible file of the staged dist, for hosts that serve precompressed
// files (nginx `gzip_static`/`brotli_static`, Caddy `precompressed`,
// Netlify, scripts/bench-serve.mjs). Node's standard library only (node is
// what scripts/setup.sh installs for the end-to-end tests). A debug build
// (`trunk serve`) is left alone: the quick loop stays quick.
//
// Usage (Trunk sets the variables): node scripts/precompress.mjs
// Or by hand on a built dist: node scripts/precompress.mjs DIR
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR;
if (!process.argv[2] && process.env.TRUNK_PROFILE !== 'release') process.exit(0);
if (!dir) {
  console.error('precompress: no directory (TRUNK_STAGING_DIR unset)');
  process.exit(1);
}
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.ftl', '.svg', '.txt']);

function* files(d) {
  for (const name of readdirSync(d)) {
    const path = join(d, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (compressible.has(extname(name))) yield path;
  }
}

let raw = 0;
let br = 0;
let gz = 0;
for (const path of files(dir)) {
  const body = readFileSync(path);
  const b = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_LGWIN]: 24 },
  });
  const g = gzipSync(body, { level: 9 });
  writeFileSync(path + '.br', b);
  writeFileSync(path + '.gz', g);
  raw += body.length;
  br += b.length;
  gz += g.length;
}
console.log(`precompress: ${dir}: ${raw} bytes -> ${br} brotli, ${gz} gzip`);
