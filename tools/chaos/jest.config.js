const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'chaos', rootDir: __dirname };
