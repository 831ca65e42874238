# syntax=docker/dockerfile:1
#
# One image for every app of the stack and for the one-shot migration job; docker-compose.yml picks
# what runs with `command`:
#   node dist/apps/<app>/src/main.js     gateway, withdrawals, events, pix-keys, customers, inflows
#   npm run db:migrate                   applies every service's migrations (scripts/db/migrate.ts)
#
# Why the runtime image keeps the full node_modules (dev dependencies included): the migration job
# runs a TypeScript script through tsx and uses the Prisma tooling, both dev dependencies, and the
# compose file runs it from this same image. A separate production-only image (`npm ci --omit=dev`)
# would save some size for the apps but needs a second image to build, tag and keep in step; for
# one image we accept the extra size. Everything in /app stays owned by root and read-only to the
# process, which runs as the unprivileged `node` user of the base image.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- deps: dependencies only, so this layer is cached until package*.json changes -----------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the project relies on no install script (npm 11, used in development, skips
# them unless approved); the base image's npm 10 would otherwise run them.
# Keep the base image's npm 10 here: npm >= 11.6.2 refuses this lockfile in `npm ci` ("Missing:
# @unrs/resolver-binding-... from lock file", optional bindings of other platforms it never lists).
RUN npm ci --ignore-scripts --no-audit --no-fund

# --- build: prisma generate (6 schemas) + tsc + tsc-alias into dist/ -------------------------------
FROM deps AS build
COPY . .
RUN npm run build

# --- runtime ---------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Heap settings as `npm start` uses them (scripts/lib/services.ts APP_NODE_FLAGS; README: Performance).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=2 --max-old-space-size=128" \
    PRISMA_HIDE_UPDATE_MESSAGE=1 \
    CHECKPOINT_DISABLE=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    HOST=0.0.0.0
WORKDIR /app
# The whole build tree: dist/ for the apps; node_modules, scripts/, prisma/ (schemas and migrations)
# and the tsconfig files for the migration job, which runs TypeScript through tsx. What this leaves
# behind is the build stage's npm cache.
COPY --from=build /app ./
USER node
EXPOSE 3000 3101 3102 3103 3104 3105
CMD ["node", "dist/apps/gateway/src/main.js"]
