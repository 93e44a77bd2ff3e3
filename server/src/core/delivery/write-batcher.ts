/**
 * Groups writes that arrive while earlier groups are being written, so N concurrent attempts
 * cost a few statements and commits rather than N. A lone write goes out at once: batching adds
 * no delay, it only absorbs what piles up while `parallel` writes are already under way.
 */
export class WriteBatcher<Item, Result> {
  #pending: Array<{ item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }> = [];
  #writers = 0;

  constructor(
    private readonly write: (items: Item[]) => Promise<(item: Item) => Result>,
    private readonly options: { maxBatch: number; parallel: number } = { maxBatch: 200, parallel: 2 },
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      if (this.#writers < this.options.parallel) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writers += 1;
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, this.options.maxBatch);
        try {
          const resultOf = await this.write(batch.map((entry) => entry.item));
          for (const entry of batch) entry.resolve(resultOf(entry.item));
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.#writers -= 1;
    }
  }
}
