import { createQueueSystem } from "../../src/queue/index.js";
import { queueSystemContract } from "./queue-system-contract.js";
import { REDIS_URL } from "./support.js";

queueSystemContract("redis", (prefix) =>
  createQueueSystem({ redisUrl: REDIS_URL, prefix, retry: { backoffMs: 10 } }),
);
