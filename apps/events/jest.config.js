const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'events', rootDir: __dirname };
