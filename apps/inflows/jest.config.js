const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'inflows', rootDir: __dirname };
