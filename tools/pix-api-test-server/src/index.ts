// The Pix API test server: a Pix service provider's API as the Central Bank's published document describes it
// (vendor/bacen-pix-api), for the devoluções (refunds) of received Pix. Development, tests and CI only.
export * from './lib/pix-api-document';
export * from './lib/pix-api-test-server';
export * from './lib/local-pix-api';
