// A tiny static server for the first-load benchmark (scripts/bench-load.mjs),
// node's standard library only: serves a built dist directory on loopback
// the way a static host that compresses does. A request whose
// Accept-Encoding names `br` gets `FILE.br` when the build put one next to
// FILE (Content-Encoding: br); one that names `gzip` gets `FILE.gz` when
// there is one, else FILE gzipped on the fly (zlib level 6, a common
// server default; compressible types only, as servers do); anything else
// gets FILE as it is. Nothing is cached by the browser (Cache-Control:
// no-store), so every load is a first load.
//
// Usage: node scripts/bench-serve.mjs DIST [PORT]  (PORT 0: any free port;
// prints "serving DIST at http://127.0.0.1:PORT/" once listening).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(process.argv[2] || '.');
const port = Number(process.argv[3] || 0);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.ftl': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};
// What a server compresses on the fly (woff2 and png are compressed already).
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.ftl', '.svg', '.txt']);

async function exists(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

const server = createServer(async (req, res) => {
  try {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = join(root, normalize(path));
    if (!file.startsWith(root) || !(await exists(file))) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    const ext = extname(file);
    const accepts = String(req.headers['accept-encoding'] || '');
    const headers = { 'Content-Type': types[ext] || 'application/octet-stream', 'Cache-Control': 'no-store', Vary: 'Accept-Encoding' };
    let body;
    if (/\bbr\b/.test(accepts) && (await exists(file + '.br'))) {
      body = await readFile(file + '.br');
      headers['Content-Encoding'] = 'br';
    } else if (/\bgzip\b/.test(accepts) && (await exists(file + '.gz'))) {
      body = await readFile(file + '.gz');
      headers['Content-Encoding'] = 'gzip';
    } else if (/\bgzip\b/.test(accepts) && compressible.has(ext)) {
      body = gzipSync(await readFile(file), { level: 6 });
      headers['Content-Encoding'] = 'gzip';
    } else {
      body = await readFile(file);
    }
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (e) {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(String(e));
  }
});
server.listen(port, '127.0.0.1', () => {
  console.log(`serving ${root} at http://127.0.0.1:${server.address().port}/`);
});
