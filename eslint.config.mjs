import nx from '@nx/eslint-plugin';
import { tsImport } from 'tsx/esm/api';
import tseslint from 'typescript-eslint';

// The apps come from the one catalogue of them (a TypeScript module: tsx, already the scripts' runner, loads it).
const { APP_NAMES } = await tsImport('./libs/contracts/src/lib/services.catalogue.ts', import.meta.url);

// Which projects may import which, by the tags in each project.json. Services never import each other:
// they share only contracts and platform libraries, and talk over Kafka. The typed API client
// (type:api-client) is for callers of the API (e2e suites, the operator CLI, scripts), never for the apps that serve it,
// and depends on no lib of ours: its types are generated from the OpenAPI document.
// The database library (type:db, libs/db) sits under the platform libraries: apps and libs/kafka use it, it
// uses none of them. A domain library (type:domain) is one app's domain code that the operator CLI shares;
// its scope is that app's, and no platform library uses it. The operator CLI (type:cli, apps/operator-cli)
// calls the API through the typed client and runs the gateway's key functions (libs/operator-access, scope
// gateway) and the services' dead-letter stores on the database; no app or library imports it.
// The runtime library (type:runtime, libs/runtime: the request context and periodic jobs) sits under
// everything that runs in a service, libs/db included, and uses no lib of ours.
// A tool (type:tool, tools/: the test servers, the notification sinks, the chaos harness, the bench baseline;
// tools/README.md) is what the product does not run in production: it may use any library and any other tool,
// and no app or library imports one, except their specs, which start the test servers in-process (below).
// The end-to-end suites (tools/e2e) are a tool tagged type:e2e as well: a project must satisfy every rule of
// its tags, so type:e2e's narrower list still holds for them.
const typeRules = {
  'type:app': ['type:contracts', 'type:util', 'type:platform', 'type:db', 'type:domain', 'type:runtime'],
  'type:cli': ['type:contracts', 'type:util', 'type:platform', 'type:domain', 'type:api-client'],
  'type:e2e': ['type:contracts', 'type:util', 'type:testing', 'type:api-client'],
  'type:api-client': [],
  'type:platform': ['type:contracts', 'type:util', 'type:platform', 'type:db', 'type:runtime'],
  'type:domain': ['type:contracts', 'type:util', 'type:platform', 'type:db', 'type:runtime'],
  'type:db': ['type:contracts', 'type:util', 'type:runtime'],
  'type:runtime': [],
  'type:contracts': ['type:util'],
  'type:testing': ['type:util', 'type:contracts'],
  'type:util': ['type:util'],
  'type:tool': [
    'type:tool',
    'type:contracts',
    'type:util',
    'type:platform',
    'type:db',
    'type:domain',
    'type:runtime',
    'type:testing',
    'type:api-client',
  ],
};
const scopes = [...APP_NAMES, 'e2e'];

const boundaries = (extraForTypes = []) => [
  'error',
  {
    enforceBuildableLibDependency: true,
    allow: [],
    depConstraints: [
      ...Object.entries(typeRules).map(([sourceTag, tags]) => ({ sourceTag, onlyDependOnLibsWithTags: [...tags, ...extraForTypes] })),
      ...scopes.map((s) => ({ sourceTag: `scope:${s}`, onlyDependOnLibsWithTags: ['scope:shared', `scope:${s}`] })),
      { sourceTag: 'scope:operator', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    ],
  },
];

// PartnerId (libs/contracts/src/lib/tenancy/partner-id.ts) is a brand only authentication may put on an id.
// Nothing casts to it (`as PartnerId`, `<PartnerId>`); its one minting function, authenticatedPartnerId,
// may be imported only where an id is vouched for: the gateway's API-key authentication, the operator
// routes' existence check of a path's partner, repositories parsing rows of their own partner-scoped
// tables, and the testing fixtures (testPartnerId). Payload classes earn it at the Kafka boundary's validation.
const partnerIdMessage =
  'A PartnerId comes from authentication (authenticatedPartnerId in the allowed files, see eslint.config.mjs), a validated payload, a repository, or testPartnerId() in specs';
const noPartnerIdCast = [
  'error',
  { selector: "TSAsExpression > TSTypeReference.typeAnnotation[typeName.name='PartnerId']", message: partnerIdMessage },
  { selector: "TSTypeAssertion > TSTypeReference.typeAnnotation[typeName.name='PartnerId']", message: partnerIdMessage },
];
// Specs fake with typed stand-ins (an in-memory repository, a narrow Pick, Nest's ExecutionContextHost,
// a payload checked by its contract), never by casting through unknown: the compiler checks a fake
// against what it stands for, so a changed interface breaks the spec instead of passing silently.
const noCastThroughUnknown = [
  {
    selector: "TSAsExpression > TSAsExpression[typeAnnotation.type='TSUnknownKeyword']",
    message: 'No `as unknown as` in specs: write a typed fake, narrow the parameter (Pick), or build a valid value',
  },
  {
    selector: "TSTypeAssertion > TSTypeAssertion[typeAnnotation.type='TSUnknownKeyword']",
    message: 'No `<T><unknown>` in specs: write a typed fake, narrow the parameter (Pick), or build a valid value',
  },
];
const noPartnerIdMinting = { name: '@partner/contracts', importNames: ['authenticatedPartnerId'], message: partnerIdMessage };

// withCode (libs/validation) takes any string: contract classes name error codes through their family's
// helper, codesOf (libs/contracts/src/lib/error-codes.ts), so a code outside the family does not compile.
const noRawWithCode = {
  name: '@partner/validation',
  importNames: ['withCode'],
  message:
    "Name an error code through its family's helper: codesOf('<family>') from @partner/contracts (libs/contracts/src/lib/error-codes.ts)",
};
const restrictedImports = (...paths) => ['error', { paths: [...paths, ...noKafkajs], patterns: noKafkajsPatterns }];

// libs/kafka holds Kafka only (docs/adr/0026-library-names-and-what-each-holds.md): the internal HTTP hops are
// libs/internal-http's, which depends on kafka, never the reverse; their callers hand them to the bus and the server.
const kafkaOnlyMessage =
  'libs/kafka holds Kafka only (docs/adr/0026-library-names-and-what-each-holds.md): HTTP belongs in libs/internal-http, which the caller hands to the bus or server';
const noHttpInKafka = {
  paths: [
    'undici',
    'node:http',
    'node:https',
    'http',
    'https',
    'node:http2',
    'http2',
    'fastify',
    '@nestjs/platform-fastify',
    '@partner/internal-http',
  ].map((name) => ({ name, message: kafkaOnlyMessage })),
  patterns: [{ group: ['undici/**', 'fastify/**', '@fastify/**'], message: kafkaOnlyMessage }],
};
// The Kafka clients, kafkajs and @platformatic/kafka (KAFKA_CLIENT), are imported by libs/kafka alone
// (docs/adr/0027-kafkajs-risk-and-a-way-out.md): a change of Kafka client is then a change of one library. The
// end-to-end suite writes a raw record as another producer would, and plays each principal of the bus against
// the broker's ACLs; it may use no library of ours but the API client and the testing helpers (typeRules), so
// it uses kafkajs directly.
const kafkajsMessage = "The Kafka clients are libs/kafka's alone (docs/adr/0027-kafkajs-risk-and-a-way-out.md): use @partner/kafka";
const noKafkajs = [
  { name: 'kafkajs', message: kafkajsMessage },
  { name: '@platformatic/kafka', message: kafkajsMessage },
];
const noKafkajsPatterns = [{ group: ['kafkajs/**', '@platformatic/kafka/**'], message: kafkajsMessage }];
// The chain code of withdrawals imports one way (docs/architecture.md): hot-wallets/ (the wallets, the rails,
// the pool) <- payouts/ (signing, tracking, rounds) <- reconciliation/ (reads both). Specs may import anything.
const withdrawalsLayers = [
  { folder: 'hot-wallets', above: ['payouts', 'reconciliation'] },
  { folder: 'payouts', above: ['reconciliation'] },
];
const withdrawalsLayerRules = withdrawalsLayers.flatMap(({ folder, above }) => {
  const patterns = [
    ...noKafkajsPatterns,
    {
      group: above.map((up) => `../${up}/*`),
      message: `withdrawals' ${folder}/ imports none of ${above.map((up) => `${up}/`).join(', ')}: hot-wallets/ <- payouts/ <- reconciliation/ (declare what is needed in the lower folder)`,
    },
  ];
  const source = `apps/withdrawals/src/${folder}/**/*.ts`;
  const specs = ['**/*.spec.ts', '**/*.spec-support.ts'];
  // The rule's other paths as the blocks above give them, repositories (partnerIdMinters) apart.
  return [
    {
      files: [source],
      ignores: [...specs, '**/*.repository.ts'],
      rules: { 'no-restricted-imports': ['error', { paths: [noPartnerIdMinting, noRawWithCode, ...noKafkajs], patterns }] },
    },
    {
      files: [`apps/withdrawals/src/${folder}/**/*.repository.ts`],
      ignores: specs,
      rules: { 'no-restricted-imports': ['error', { paths: [noRawWithCode, ...noKafkajs], patterns }] },
    },
  ];
});
const partnerIdMinters = [
  'apps/gateway/src/auth/**/*.ts',
  'apps/gateway/src/partners/known-partner.ts',
  'apps/*/src/**/*.repository.ts',
  'libs/testing/src/**/*.ts',
];

// Rules that read the types (the whole workspace is one TypeScript program: tsconfig.json). Off from
// typescript-eslint's recommended set: the no-unsafe-* family, which flags `any` arriving from library
// typings (Jest's expect.any, res.json(), JSON.parse, class-transformer's @Transform arguments) rather
// than any we write (no-explicit-any bans that); and require-await, which flags test fakes that
// implement Promise-returning interfaces with `async`, the plain way to write them.
const typeChecked = {
  ...tseslint.configs.recommendedTypeCheckedOnly.find((config) => config.name === 'typescript-eslint/recommended-type-checked-only').rules,
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
  'require-await': 'off',
  '@typescript-eslint/require-await': 'off',
};

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/generated/**', '.cache/**', '.nx/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      ...typeChecked,
      '@nx/enforce-module-boundaries': boundaries(),
      '@typescript-eslint/no-explicit-any': 'error',
      // Config and DTO properties keep explicit types: decorator metadata (class-transformer's
      // implicit conversion of env strings) only sees annotated types.
      '@typescript-eslint/no-inferrable-types': ['error', { ignoreProperties: true }],
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests, and only tests, may use the testing library and the tools (*.spec-support.ts: helpers shared by
    // specs, never built): a spec starts the DICT and Pix API test servers and the notification sinks in-process.
    files: ['**/*.spec.ts', '**/*.spec-support.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(['type:testing', 'type:tool']) },
  },
  {
    // The root project (project.json: the workspace's build) holds every file outside apps/, libs/ and tools/; its
    // scripts (and the network workarounds in offline/) were never a project of the graph, and reach the libraries by path.
    files: ['scripts/**/*.ts', 'offline/**/*.ts', '*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.ts'],
    rules: { 'no-restricted-syntax': noPartnerIdCast, 'no-restricted-imports': restrictedImports(noPartnerIdMinting, noRawWithCode) },
  },
  { files: ['**/*.spec.ts', '**/*.spec-support.ts'], rules: { 'no-restricted-syntax': [...noPartnerIdCast, ...noCastThroughUnknown] } },
  { files: partnerIdMinters, rules: { 'no-restricted-imports': restrictedImports(noRawWithCode) } },
  ...withdrawalsLayerRules,
  {
    files: ['tools/e2e/src/dead-letters.spec.ts', 'tools/e2e/src/bus-acls.spec.ts', 'tools/e2e/src/support/bus.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noPartnerIdMinting, noRawWithCode] }] },
  },
  {
    files: ['libs/kafka/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noPartnerIdMinting, noRawWithCode, ...noHttpInKafka.paths], patterns: noHttpInKafka.patterns },
      ],
    },
  },
  // offline/ holds the network workarounds of these machines, each dropped as a unit (offline/README.md): it
  // imports nothing else of the repository; scripts/ may call it, never the reverse.
  {
    files: ['offline/**/*.ts', 'offline/**/*.js'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noPartnerIdMinting, noRawWithCode, ...noKafkajs],
          patterns: [
            ...noKafkajsPatterns,
            {
              group: ['**/scripts/**', '**/libs/**', '**/apps/**', '**/tools/**', '@partner/*'],
              message: 'offline/ imports nothing else of the repository (offline/README.md): pass what it needs in from the caller',
            },
          ],
        },
      ],
    },
  },
  // The family helpers are built on it; type tests show what it refuses.
  {
    files: ['libs/contracts/src/lib/error-codes.ts', 'libs/contracts/src/lib/error-codes.type-spec.ts'],
    rules: { 'no-restricted-imports': restrictedImports(noPartnerIdMinting) },
  },
  // The brand's own definition is the one cast.
  { files: ['libs/contracts/src/lib/tenancy/partner-id.ts'], rules: { 'no-restricted-syntax': 'off' } },
  // Prisma is for the schemas and migrations (ADR 0021): the apps and their specs run every statement
  // through @partner/db, on pg (the specs with libs/testing's selectRows and its kin); the tools likewise.
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'tools/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@prisma/client', '@prisma/client/*', '@prisma/adapter-pg'],
              message: 'Prisma is for schemas and migrations only (ADR 0021): run statements through @partner/db',
            },
          ],
        },
      ],
    },
  },
];
