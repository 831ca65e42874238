const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'runtime', rootDir: __dirname };
