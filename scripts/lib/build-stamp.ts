/**
 * What `npm run build -- --if-stale` (and so `npm start`) may skip: each generator and the compilation is a
 * step with its inputs and outputs, recorded by content in a stamp under .cache/stamps/ (content-stamp.ts).
 * A step runs again when any input or output differs from its stamp; a plain `npm run build` (and
 * `npm test`) runs every step regardless.
 */
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

/** The typed API client's types (scripts/lib/api-client-types.ts), from the committed OpenAPI documents. */
export const API_CLIENT_TYPES_STEP: Step = {
  name: 'api-client-types',
  inputs: ['docs/openapi.json', 'docs/openapi-operator.json', 'scripts/lib/api-client-types.ts', ...installed('openapi-typescript')],
  outputs: ['libs/api-client/src/generated'],
};

/** Never compiled into dist/ (tsconfig.build.json), nor read by the build: editing them does not rebuild. */
const NOT_BUILT = /\.(spec|type-spec)\.ts$/;
const NEVER_SOURCES = new Set(['node_modules', 'dist', 'coverage', '.cache']);
const skipBuildInput: Skip = (path, isDirectory) => (isDirectory ? NEVER_SOURCES.has(posix.basename(path)) : NOT_BUILT.test(path));

/**
 * The compilation: every source of the apps and libs, the API client's generated types among them; what
 * generates them (the OpenAPI documents); the compiler's settings and every dependency's version; and
 * the build scripts themselves. So its stamp matching also means every generator's step is current.
 */
export function buildStep(): Step {
  return {
    name: 'build',
    inputs: [
      'apps',
      'libs',
      'docs/openapi.json',
      'docs/openapi-operator.json',
      'tsconfig.base.json',
      'tsconfig.build.json',
      'package-lock.json',
      'scripts/build.ts',
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

/** Why dist/ must be rebuilt (empty: it was built from exactly the sources, documents and settings there are now). */
export const buildStaleness = (root: string): string[] => stepStaleness(root, buildStep());

export const buildIsCurrent = (root: string): boolean => buildStaleness(root).length === 0;
