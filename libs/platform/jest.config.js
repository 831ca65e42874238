const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'platform', rootDir: __dirname };
