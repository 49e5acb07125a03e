/**
 * Walks due rows in batches, one short transaction per batch, until a batch comes back short.
 * `batch` receives the cursor the previous batch returned (undefined the first time), so a batch
 * can resume after the last row it saw (keyset paging) instead of finding the same rows again.
 */
export interface BatchResult<C> {
  /** Rows the batch looked at. */
  readonly rows: number;
  readonly cursor: C | undefined;
}

export async function inBatches<C>(
  batchSize: number,
  batch: (cursor: C | undefined) => Promise<BatchResult<C>>,
): Promise<void> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a whole number from 1, got ${batchSize}`);
  }
  let cursor: C | undefined;
  for (;;) {
    const result = await batch(cursor);
    if (result.rows < batchSize) return;
    cursor = result.cursor;
  }
}
