// The order of the end-to-end suites, stated here rather than by file names. Most suites need only a
// running stack and run first, by path. Then, in this order:
//   consumer-recovery  restarts the broker gracefully and kills an app: after the suites that need a quiet stack;
//   chaos              kills and restarts apps and the broker under load: after every suite that sends requests;
//   privacy            searches every log line, span and audit entry the run wrote (chaos's restarts included);
//   response-contract  checks every answer all the others received, so it must be last.
// Jest's default order (by earlier durations and file size) would guarantee none of this.
const Sequencer = require('@jest/test-sequencer').default;
const { existsSync } = require('node:fs');
const { basename, join } = require('node:path');

const LAST = ['consumer-recovery.spec.ts', 'chaos.spec.ts', 'privacy.spec.ts', 'response-contract.spec.ts'];
// A renamed suite would silently lose its place: refuse to run instead.
for (const name of LAST)
  if (!existsSync(join(__dirname, 'src', name))) throw new Error(`tools/e2e/sequencer.js: no suite ${name} in tools/e2e/src`);
const rank = (test) => LAST.indexOf(basename(test.path)); // -1: not one of them, so first

module.exports = class StatedOrder extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
  }
};
module.exports.LAST = LAST;
