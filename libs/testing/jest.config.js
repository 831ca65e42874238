const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'testing', rootDir: __dirname };
