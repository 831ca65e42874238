const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'validation', rootDir: __dirname };
