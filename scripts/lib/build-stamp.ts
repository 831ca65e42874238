/**
 * What `npm run build -- --if-stale` (and so `npm start`) may skip: each generator and the compilation is a
 * step with its inputs and outputs, recorded by content in a stamp under .cache/stamps/ (content-stamp.ts).
 * A step runs again when any input or output differs from its stamp; a plain `npm run build` (and
 * `npm test`) runs every step regardless.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { digest, readStamp, Skip, Stamp, staleness, writeStamp } from './content-stamp';

export interface Step {
  name: string;
  /** Files or folders, relative to the repository root. */
  inputs: string[];
  outputs: string[];
  /** Inputs left out (spec files, installed packages...). */
  skipInputs?: Skip;
}

const stampFile = (root: string, step: Step) => join(root, '.cache', 'stamps', `${step.name}.json`);

/** The installed packages whose code a generator is: their version is in their package.json. */
const installed = (...packages: string[]) => packages.map((p) => `node_modules/${p}/package.json`);

/** The services that have a Prisma schema (prisma/<service>/schema.prisma). */
export function prismaServices(root: string): string[] {
  return readdirSync(join(root, 'prisma'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && readdirSync(join(root, 'prisma', d.name)).includes('schema.prisma'))
    .map((d) => d.name)
    .sort();
}

/** A service's Prisma client: its schema and the installed generator in, the `output` folder its schema names out. */
export function prismaClientStep(root: string, service: string): Step {
  const schema = `prisma/${service}/schema.prisma`;
  const output = /^\s*output\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, schema), 'utf8'))?.[1];
  if (!output) throw new Error(`${schema}: no generator output folder`);
  return {
    name: `prisma-client-${service}`,
    inputs: [schema, ...installed('prisma', '@prisma/client')],
    outputs: [posix.join(`prisma/${service}`, output)],
  };
}

/** The typed API client's types (scripts/lib/api-client-types.ts), from the committed OpenAPI documents. */
export const API_CLIENT_TYPES_STEP: Step = {
  name: 'api-client-types',
  inputs: ['docs/openapi.json', 'docs/openapi-operator.json', 'scripts/lib/api-client-types.ts', ...installed('openapi-typescript')],
  outputs: ['libs/api-client/src/generated'],
};

/** Never compiled into dist/ (tsconfig.build.json), nor read by the build: editing them does not rebuild. */
const NOT_BUILT = /\.(spec|type-spec)\.ts$/;
const NEVER_SOURCES = new Set(['node_modules', 'dist', 'coverage', '.cache']);
const skipBuildInput: Skip = (path, isDirectory) =>
  isDirectory ? NEVER_SOURCES.has(posix.basename(path)) : NOT_BUILT.test(path);

/**
 * The compilation: every source of the apps and libs, the generated clients among them; what generates
 * them (the schemas, the OpenAPI documents); the compiler's settings and every dependency's version; and
 * the build scripts themselves. So its stamp matching also means every generator's step is current.
 */
export function buildStep(root: string): Step {
  return {
    name: 'build',
    inputs: [
      'apps',
      'libs',
      ...prismaServices(root).map((service) => `prisma/${service}/schema.prisma`),
      'docs/openapi.json',
      'docs/openapi-operator.json',
      'tsconfig.base.json',
      'tsconfig.build.json',
      'package-lock.json',
      'scripts/build.ts',
      'scripts/db/generate.ts',
      ...['build-stamp.ts', 'content-stamp.ts', 'api-client-types.ts'].map((file) => `scripts/lib/${file}`),
    ],
    outputs: ['dist'],
    skipInputs: skipBuildInput,
  };
}

/** A step's inputs and outputs as they are now. */
export function currentState(root: string, step: Step): Stamp {
  return { inputs: digest(root, step.inputs, step.skipInputs), outputs: digest(root, step.outputs) };
}

/** Why `step` must run: empty when its stamp matches every input and output now. */
export function stepStaleness(root: string, step: Step): string[] {
  return staleness(readStamp(stampFile(root, step)), currentState(root, step));
}

/**
 * Records a step that just succeeded: the inputs as read BEFORE it ran (a file saved meanwhile then
 * differs, and the next run redoes the step), the outputs as they are now.
 */
export function recordStep(root: string, step: Step, inputsBefore: Stamp['inputs']): void {
  writeStamp(stampFile(root, step), { inputs: inputsBefore, outputs: digest(root, step.outputs) });
}

/** Why dist/ must be rebuilt (empty: it was built from exactly the sources, schemas and settings there are now). */
export const buildStaleness = (root: string): string[] => stepStaleness(root, buildStep(root));

export const buildIsCurrent = (root: string): boolean => buildStaleness(root).length === 0;
