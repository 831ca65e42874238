const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'operator-access', rootDir: __dirname };
