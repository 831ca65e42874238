const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'operator-cli', rootDir: __dirname };
