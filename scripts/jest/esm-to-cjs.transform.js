// Jest cannot `require` ES modules (Node 24 can, so the build stays CommonJS): @platformatic/kafka and its
// ESM-only dependencies are compiled to CommonJS for Jest by esbuild (jest.preset.js;
// docs/adr/0027-kafkajs-risk-and-a-way-out.md). `import.meta.url` becomes the file's own URL.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code } = transformSync(source, {
      loader: 'js',
      format: 'cjs',
      target: 'node24',
      sourcefile: filename,
      define: { 'import.meta.url': '__esmFileUrl' },
      banner: "const __esmFileUrl = require('node:url').pathToFileURL(__filename).href;",
    });
    return { code };
  },
};
