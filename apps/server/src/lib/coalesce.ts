/**
 * Coalesces calls that arrive together into one batch per key (decision 029): calls for the same key
 * made in one turn of the event loop go to `run` as one array, so many requests cost one database
 * round trip and one transaction. At most `maxInFlight` batches per key run at once; calls arriving
 * while that many run wait for the next batch, so batches grow with the load instead of the number of
 * round trips. `run` answers one result per input, in order. When a batch of several fails, each of its
 * inputs is run again alone, so one caller's error never fails the others.
 */
export function createCoalescer<TInput, TOutput>(
  run: (key: string, inputs: TInput[]) => Promise<TOutput[]>,
  options: { maxBatch: number; maxInFlight: number },
): (key: string, input: TInput) => Promise<TOutput> {
  interface TWaiting {
    input: TInput;
    resolve: (output: TOutput) => void;
    reject: (error: unknown) => void;
  }
  const waiting = new Map<string, TWaiting[]>();
  const inFlight = new Map<string, number>();
  const scheduled = new Set<string>();

  async function runBatch(key: string, batch: TWaiting[]): Promise<void> {
    try {
      const outputs = await run(key, batch.map((each) => each.input));
      if (outputs.length !== batch.length) throw new Error(`coalesced run answered ${outputs.length} results for ${batch.length} inputs`);
      batch.forEach((each, index) => each.resolve(outputs[index] as TOutput));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Alone, each input either succeeds or fails with its own error.
      await Promise.all(
        batch.map(async (each) => {
          try {
            const [output] = await run(key, [each.input]);
            each.resolve(output as TOutput);
          } catch (own) {
            each.reject(own);
          }
        }),
      );
    }
  }

  function flush(key: string): void {
    scheduled.delete(key);
    const queue = waiting.get(key);
    while (queue && queue.length > 0 && (inFlight.get(key) ?? 0) < options.maxInFlight) {
      const batch = queue.splice(0, options.maxBatch);
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      void runBatch(key, batch).finally(() => {
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left === 0) inFlight.delete(key);
        else inFlight.set(key, left);
        schedule(key);
      });
    }
    if (queue && queue.length === 0) waiting.delete(key);
  }

  function schedule(key: string): void {
    if (scheduled.has(key) || !waiting.has(key)) return;
    scheduled.add(key);
    setImmediate(() => flush(key));
  }

  return (key, input) =>
    new Promise<TOutput>((resolve, reject) => {
      const queue = waiting.get(key) ?? [];
      queue.push({ input, resolve, reject });
      waiting.set(key, queue);
      schedule(key);
    });
}
