const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'pix-keys', rootDir: __dirname };
