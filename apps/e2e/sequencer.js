// Runs the end-to-end suites in file-name order, so that zz-chaos.spec.ts (which kills and restarts
// services) comes last; Jest's default order (by earlier durations and file size) would not guarantee it.
const Sequencer = require('@jest/test-sequencer').default;

module.exports = class ByName extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => a.path.localeCompare(b.path));
  }
};
