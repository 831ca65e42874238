const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'withdrawals', rootDir: __dirname };
