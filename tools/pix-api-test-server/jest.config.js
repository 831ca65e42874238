const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'pix-api-test-server', rootDir: __dirname };
