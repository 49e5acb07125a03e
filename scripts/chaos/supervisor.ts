/**
 * A supervised engine process, as systemd or Kubernetes would keep one: started with its
 * environment, restarted after any exit that was not asked for (a crash, SIGKILL, the exit 1 of a
 * worker whose connections stayed dead), and stopped for good only by stop(). Its output goes to a
 * log file, so a failing scenario can be read afterwards.
 */
import { closeSync, openSync } from "node:fs";
import {
  type Exit,
  hasExited,
  startWorkerProcess,
  stopWorkerProcesses,
  type WorkerProcess,
} from "../bench/processes.js";

/** A pause before a restart, as supervisors back off, so a process that cannot start does not spin. */
const RESTART_DELAY_MS = 500;
/** Past the processes' SHUTDOWN_TIMEOUT_MS, a process that has not exited is killed. */
const STOP_KILL_MS = 15_000;

export class Supervised {
  private current: WorkerProcess;
  private stopping = false;
  private readonly exits: Exit[] = [];
  restarts = 0;

  constructor(
    readonly name: string,
    private readonly script: string,
    private env: NodeJS.ProcessEnv,
    private readonly logFile: string,
  ) {
    this.current = this.spawn();
  }

  get process(): WorkerProcess {
    return this.current;
  }

  /** Exits the supervisor did not ask for, oldest first. */
  get unexpectedExits(): readonly Exit[] {
    return this.exits;
  }

  /** Sends a signal to the running process; the supervisor restarts it when it exits. */
  kill(signal: NodeJS.Signals): void {
    if (!hasExited(this.current)) this.current.child.kill(signal);
  }

  /** Stops the process gracefully and starts it again with `env` (e.g. another API key). */
  async replace(env: NodeJS.ProcessEnv): Promise<void> {
    this.stopping = true;
    await stopWorkerProcesses([this.current], STOP_KILL_MS);
    this.env = env;
    this.stopping = false;
    this.current = this.spawn();
  }

  async stop(): Promise<Exit> {
    this.stopping = true;
    const [exit] = await stopWorkerProcesses([this.current], STOP_KILL_MS);
    return exit!;
  }

  private spawn(): WorkerProcess {
    const log = openSync(this.logFile, "a");
    const started = startWorkerProcess(this.script, this.env, { stdio: ["ignore", log, log] });
    // The child holds its own copy of the descriptor from here on.
    closeSync(log);
    void started.exited.then((exit) => {
      if (this.stopping || started !== this.current) return;
      this.exits.push(exit);
      setTimeout(() => {
        if (this.stopping || started !== this.current) return;
        this.restarts += 1;
        this.current = this.spawn();
      }, RESTART_DELAY_MS);
    });
    return started;
  }
}
