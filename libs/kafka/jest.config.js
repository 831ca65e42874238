const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'kafka', rootDir: __dirname };
