# One image for every part of billing-engine; docker-compose.yml picks the command per service.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
# The postinstall step applies patches/ (the postgres.js repair; see the script's header).
COPY scripts/patch-dependencies.mjs scripts/
COPY patches/ patches/
# Dependencies first, so this layer is reused while only sources change. npm's `prepare` builds
# dist/ from the sources, which are not copied yet: it is left out here and run below. tsx and
# typescript (dev dependencies) run and build the TypeScript, so dev dependencies are installed too.
RUN npm pkg delete scripts.prepare && npm ci --no-fund --no-audit --include=dev
ENV NODE_ENV=production
COPY . .
# dist/: the compiled CLI and workers (`npm run build`), which start in a fraction of tsx's time.
RUN npm run build
EXPOSE 3000 4010
CMD ["node", "--import", "tsx", "scripts/start.ts"]
