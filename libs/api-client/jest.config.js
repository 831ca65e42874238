const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'api-client', rootDir: __dirname };
