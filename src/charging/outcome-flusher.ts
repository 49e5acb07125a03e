/**
 * Rule: a finished gateway outcome waits at most `flushMs` (or until `maxGroup` have gathered)
 * before it is recorded, and outcomes that finish together are recorded together, one flush at a
 * time: one transaction per group instead of one per charge, without holding a finished outcome
 * back for long. Until its flush commits, an outcome is only in memory and its attempt is still
 * open in Postgres, which is what a crash must leave: the attempt is reconciled from CheckStatus.
 *
 * A group whose flush fails is retried one item at a time, so one bad row does not keep the others
 * from being recorded; an item that fails alone rejects its own promise.
 */
export interface OutcomeFlusher<I, R> {
  /** Resolves with the item's result once the flush that recorded it has committed. */
  add(item: I): Promise<R>;
}

interface Pending<I, R> {
  readonly item: I;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

export function createOutcomeFlusher<I, R>(options: {
  readonly flushMs: number;
  readonly maxGroup: number;
  /** Records a group; results in the group's order. */
  readonly flush: (items: readonly I[]) => Promise<R[]>;
}): OutcomeFlusher<I, R> {
  let pending: Pending<I, R>[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();

  const record = async (group: Pending<I, R>[]) => {
    try {
      const results = await options.flush(group.map((p) => p.item));
      for (const [index, p] of group.entries()) p.resolve(results[index] as R);
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      for (const one of group) await record([one]);
    }
  };

  const flushNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const group = pending;
    pending = [];
    if (group.length > 0) chain = chain.then(() => record(group));
  };

  return {
    add(item) {
      return new Promise<R>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (pending.length >= options.maxGroup) flushNow();
        else timer ??= setTimeout(flushNow, options.flushMs);
      });
    },
  };
}
