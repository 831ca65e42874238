const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'customers', rootDir: __dirname };
