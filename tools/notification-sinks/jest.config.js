const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'notification-sinks', rootDir: __dirname };
