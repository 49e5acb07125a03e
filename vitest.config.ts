import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites share one Postgres and one Redis; each uses its own database schema and queue prefix.
    fileParallelism: true,
    maxWorkers: 2,
    pool: "forks",
  },
});
