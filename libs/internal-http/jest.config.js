const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'internal-http', rootDir: __dirname };
