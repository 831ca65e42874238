// Runs the end-to-end suites in file-name order, so that zz-chaos.spec.ts (which kills and restarts
// services) comes after every other suite but one: zzz-response-contract.spec.ts, which checks what all
// of them received and so must be last. Jest's default order (by earlier durations and file size) would
// guarantee neither.
const Sequencer = require('@jest/test-sequencer').default;

const LAST = 'zzz-response-contract.spec.ts';
const isLast = (test) => test.path.endsWith(LAST);

module.exports = class ByName extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => Number(isLast(a)) - Number(isLast(b)) || a.path.localeCompare(b.path));
  }
};
