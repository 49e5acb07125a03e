# One image for every part of billing-engine; docker-compose.yml picks the command per service.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
# The postinstall step repairs the postgres.js driver (see the script's header).
COPY scripts/patch-dependencies.mjs scripts/
# tsx (a dev dependency) runs the TypeScript entry points, so dev dependencies are installed too.
RUN npm ci --no-fund --no-audit --include=dev
ENV NODE_ENV=production
COPY . .
EXPOSE 3000 4010
CMD ["node", "--import", "tsx", "scripts/start.ts"]
