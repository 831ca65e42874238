const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'config', rootDir: __dirname };
