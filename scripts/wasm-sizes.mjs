// What a wasm module is made of (issue 28 §2: what the first screen's
// module holds, to choose what to move into a module loaded later): the
// code section's bytes per function, added up per crate and per module
// path of this crate, plus the data section's bytes. Reads the function
// names from the module's "name" section, so run it on a module that has
// one: the main module before wasm-opt (scripts/split-wasm.mjs leaves it in
// TARGET/wasm-split/release/split/team-protocols-HASH.wasm), or one
// optimised with `wasm-opt -Oz -g`. Sizes before wasm-opt are larger than
// what ships, but rank the same parts first.
//
// Usage: node scripts/wasm-sizes.mjs FILE.wasm [DEPTH (3)] [TOP (40)]
// DEPTH: how many `::` path segments of this crate's items to group by.
import { readFileSync } from 'node:fs';

const [file, depthArg, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/wasm-sizes.mjs FILE.wasm [DEPTH] [TOP]');
  process.exit(2);
}
const depth = Number(depthArg || 3);
const top = Number(topArg || 40);
const buf = readFileSync(file);

let pos = 8;
const leb = () => {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return result;
  }
};
const str = () => {
  const n = leb();
  const s = buf.toString('utf8', pos, pos + n);
  pos += n;
  return s;
};

let importedFuncs = 0;
const bodies = []; // byte size of each defined function's body
const names = new Map(); // function index -> name
let dataBytes = 0;
let customBytes = 0;
const sections = {};
while (pos < buf.length) {
  const id = buf[pos++];
  const size = leb();
  const end = pos + size;
  sections[id] = (sections[id] || 0) + size;
  if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      str();
      str();
      const kind = buf[pos++];
      if (kind === 0) {
        leb();
        importedFuncs++;
      } else if (kind === 1) {
        pos++;
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 2) {
        const flags = leb();
        leb();
        if (flags & 1) leb();
      } else if (kind === 3) {
        pos += 2;
      } else if (kind === 4) {
        pos++;
        leb();
      }
    }
  } else if (id === 10) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const n = leb();
      bodies.push(n);
      pos += n;
    }
  } else if (id === 11) {
    dataBytes += size;
  } else if (id === 0) {
    const name = str();
    if (name === 'name') {
      while (pos < end) {
        const sub = buf[pos++];
        const subSize = leb();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const count = leb();
          for (let i = 0; i < count; i++) {
            const idx = leb();
            names.set(idx, str());
          }
        }
        pos = subEnd;
      }
    } else {
      customBytes += size;
    }
  }
  pos = end;
}

// Rust's legacy mangling (`_ZN` 3foo 3bar 17h<hash> `E`) to `foo::bar`;
// other names as they are.
const demangle = (raw) => {
  const name = raw.replace(/ local_shim$/, '');
  const m = /^_?_ZN(.*)E/.exec(name);
  if (!m) return name;
  const s = m[1];
  const parts = [];
  let i = 0;
  while (i < s.length && /[0-9]/.test(s[i])) {
    let j = i;
    while (/[0-9]/.test(s[j])) j++;
    const n = Number(s.slice(i, j));
    parts.push(s.slice(j, j + n));
    i = j + n;
  }
  if (parts.length && /^h[0-9a-f]{16}$/.test(parts[parts.length - 1])) parts.pop();
  return parts
    .join('::')
    .replace(/\$LT\$/g, '<')
    .replace(/\$GT\$/g, '>')
    .replace(/\$RF\$/g, '&')
    .replace(/\$BP\$/g, '*')
    .replace(/\$C\$/g, ',')
    .replace(/\$u20\$/g, ' ')
    .replace(/\$u7b\$/g, '{')
    .replace(/\$u7d\$/g, '}')
    .replace(/\$u5b\$/g, '[')
    .replace(/\$u5d\$/g, ']')
    .replace(/\$u27\$/g, "'")
    .replace(/\$u[0-9a-f]+\$/g, '?')
    .replace(/\.\./g, '::')
    .replace(/^_</, '<');
};

// The crate an item belongs to: the first path's first segment, past
// `<`, `&`, `dyn`, `core::ptr::drop_in_place<` and the like.
const crateOf = (name) => {
  // Rust's v0 mangling (`_R`…): the first crate root, `C s<hash>_ <len><name>`.
  const v0 = /^_R.*?Cs[0-9A-Za-z]*_(\d+)/.exec(name);
  if (v0) {
    const at = v0.index + v0[0].length;
    return name.slice(at, at + Number(v0[1]));
  }
  const n = name.replace(/^(core::ptr::drop_in_place<|<|&|mut |dyn |\(|\[)+/g, '');
  const m = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(n);
  return m ? m[1] : '(other)';
};
const pathOf = (name) => {
  const n = name.replace(/^(core::ptr::drop_in_place<|<|&|mut |dyn |\(|\[)+/g, '');
  return n.split(/[<> ]/)[0].split('::').slice(0, depth).join('::');
};

const byCrate = new Map();
const byPath = new Map();
let code = 0;
bodies.forEach((size, i) => {
  const name = demangle(names.get(importedFuncs + i) || '(unnamed)');
  code += size;
  const c = crateOf(name);
  byCrate.set(c, (byCrate.get(c) || 0) + size);
  if (c === 'team_protocols') {
    const p = pathOf(name);
    byPath.set(p, (byPath.get(p) || 0) + size);
  }
});
const table = (title, map) => {
  console.log(`\n${title}`);
  const rows = [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [k, v] of rows) console.log(`${String(v).padStart(10)}  ${((100 * v) / code).toFixed(1).padStart(5)}%  ${k}`);
};
console.log(`${file}: ${buf.length} bytes; code ${code} (${bodies.length} functions, ${names.size ? 'named' : 'no names'}), data ${dataBytes}, other custom sections ${customBytes}`);
// SHOW_CRATE=NAME: that crate's largest functions, one a line.
if (process.env.SHOW_CRATE) {
  const rows = [];
  bodies.forEach((size, i) => {
    const name = demangle(names.get(importedFuncs + i) || '(unnamed)');
    if (crateOf(name) === process.env.SHOW_CRATE) rows.push([size, name]);
  });
  rows
    .sort((a, b) => b[0] - a[0])
    .slice(0, top)
    .forEach(([size, name]) => console.log(`${String(size).padStart(10)}  ${name.slice(0, 200)}`));
}
table('code per crate (first path segment)', byCrate);
table(`code of team_protocols per path (${depth} segments)`, byPath);
