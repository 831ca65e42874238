// The DICT test server: the Central Bank's DICT API as its published document describes it
// (vendor/bacen-pix-dict-api), over mutual TLS with signed XML. Development, tests and CI only.
export * from './lib/dict-document';
export * from './lib/dict-pki';
export * from './lib/dict-test-server';
export * from './lib/local-dict';
export * from './lib/quickstart-signer';
export * from './lib/test-claims';
export * from './lib/test-med';
