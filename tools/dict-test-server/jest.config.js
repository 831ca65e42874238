const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'dict-test-server', rootDir: __dirname };
