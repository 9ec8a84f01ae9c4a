// Trunk's post_build hook (Trunk.toml): the release page's two last steps,
// in order (Trunk runs the hooks of one stage at the same time, so they are
// one hook): split the page's wasm (scripts/split-wasm.mjs), then write
// the precompressed files of the whole dist (scripts/precompress.mjs),
// split modules included. Each script returns at once outside a release
// build, so `trunk serve` stays as quick as it was.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
for (const script of ['split-wasm.mjs', 'precompress.mjs']) {
  execFileSync(process.execPath, [join(here, script)], { stdio: 'inherit' });
}
