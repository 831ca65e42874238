const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'tracing', rootDir: __dirname };
