FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && touch dist/.build-stamp && npm prune --omit=dev

# Only what `npm run build` produced (code and the data it reads: catalog, router artefact), the
# production node_modules and package.json; test/runtime-layout.e2e-spec.ts assembles exactly
# these COPY lines and starts the CMD.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=8080
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# Without DATABASE_URL the embedded database lives in ./.rosetta, which USER node must own.
RUN mkdir -p /app/.rosetta && chown node:node /app/.rosetta
USER node
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# With DATABASE_URL and REDIS_URL the gateway runs WORKERS processes behind its ports, by default
# the available parallelism, which in a container counts the host's cores (or its cpuset), not a
# --cpus quota: set WORKERS to the CPUs the container is given. The node flags are
# scripts/gateway-node-flags.js (test/runtime-layout.e2e-spec.ts holds the two together).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=64", "dist/apps/gateway/src/main.js"]
