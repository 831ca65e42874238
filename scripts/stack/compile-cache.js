/**
 * npm start's V8 code cache for the apps, loaded with `node --require` (StackOptions.compileCache): an app
 * spends about a sixth of its start-up CPU compiling the JavaScript it loads, the same files every time.
 * Node 22.1+ caches that itself (module.enableCompileCache); Node 20 does not, so there each CommonJS
 * module is compiled through vm.Script with the cached data of the last run, and the data is written back
 * after start-up. An entry is found by the file's path and content hash, and V8 checks it again: a changed
 * file, another Node or other V8 flags only miss. Anything this hook does not handle the usual way
 * (an ES module, a syntax error, a file with a #! line) goes to Node's own compile. Not used by npm test,
 * the bench or any deployment: they run the apps as the images do.
 */
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');

const dir = process.env.APP_COMPILE_CACHE_DIR;
/** After start-up (timers wait for the synchronous loading anyway), so the data holds the functions start-up compiled too. */
const WRITE_AFTER_MS = 5_000;

if (!dir) {
  // Not asked for: nothing to do.
} else if (typeof Module.enableCompileCache === 'function') {
  Module.enableCompileCache(dir);
} else {
  hookCompile(dir);
}

function hookCompile(dir) {
  const main = process.argv[1] ?? 'main';
  const file = join(dir, `${basename(dirname(dirname(main)))}-${createHash('sha1').update(main).digest('hex').slice(0, 12)}.bin`);
  const cached = readEntries(file);
  const compiled = new Map(); // key -> vm.Script: this run's, what the cache is written from
  let misses = 0;
  const original = Module.prototype._compile;

  Module.prototype._compile = function compile(content, filename, format) {
    if (format !== undefined && format !== 'commonjs') return original.apply(this, [content, filename, format]);
    const key = `${filename}\0${createHash('sha1').update(content).digest('base64')}`;
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData: cached.get(key),
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      return original.apply(this, [content, filename, format]);
    }
    if (script.cachedDataRejected !== false) misses++;
    compiled.set(key, script);
    const mod = this;
    // What Node's own require function carries (makeRequireFunction).
    const require = (id) => mod.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
    Object.assign(require, { main: process.mainModule, extensions: Module._extensions, cache: Module._cache });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(mod.exports, mod.exports, require, mod, filename, dirname(filename));
  };

  // Written once start-up is over, and again at exit when more was compiled since (a stack stopped
  // right after it was ready, code loaded later): only ever when something missed.
  const write = () => {
    if (misses > 0) writeEntries(file, compiled);
    misses = 0;
  };
  setTimeout(() => {
    write();
    cached.clear(); // the last run's data (megabytes): what loads later compiles as usual
  }, WRITE_AFTER_MS).unref();
  process.once('exit', write);
}

function readEntries(file) {
  const entries = new Map();
  let buffer;
  try {
    buffer = readFileSync(file);
  } catch {
    return entries;
  }
  try {
    // [key length][key][data length][data]...
    for (let at = 0; at < buffer.length;) {
      const keyLength = buffer.readUInt32LE(at);
      const key = buffer.toString('utf8', at + 4, at + 4 + keyLength);
      at += 4 + keyLength;
      const dataLength = buffer.readUInt32LE(at);
      entries.set(key, buffer.subarray(at + 4, at + 4 + dataLength));
      at += 4 + dataLength;
    }
  } catch {
    entries.clear(); // truncated: start again
  }
  return entries;
}

function writeEntries(file, compiled) {
  try {
    const parts = [];
    for (const [key, script] of compiled) {
      const keyBytes = Buffer.from(key, 'utf8');
      const data = script.createCachedData();
      const lengths = Buffer.alloc(8);
      lengths.writeUInt32LE(keyBytes.length, 0);
      lengths.writeUInt32LE(data.length, 4);
      parts.push(lengths.subarray(0, 4), keyBytes, lengths.subarray(4), data);
    }
    mkdirSync(dirname(file), { recursive: true });
    // Whole or not at all: two instances of an app may write at once.
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, Buffer.concat(parts));
    renameSync(tmp, file);
  } catch {
    // A cache only: the next start compiles again.
  }
}
