/**
 * A background loop of one process: a pass, then `intervalMs` of sleep, then the next pass — so two
 * passes never run side by side. The timer is unref'd (it never keeps the process alive) and a failed
 * pass is logged, not thrown, so the loop keeps going.
 */
export interface TIntervalLoop<TResult> {
  /** Schedules the first pass `intervalMs` from now; a second start while running does nothing. */
  start(): void;
  /** Stops scheduling, tells the pass in progress through its signal, and waits for it. */
  stop(): Promise<void>;
  /** One pass now, queued after the one in progress (never beside it); its result, or its error. */
  runOnce(): Promise<TResult>;
}

export function createIntervalLoop<TResult>(options: {
  intervalMs: number;
  /** One pass; `signal` aborts once stop() is called, so a long pass can end early. */
  run: (signal: AbortSignal) => Promise<TResult>;
  onError: (error: unknown) => void;
}): TIntervalLoop<TResult> {
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let isStopped = true;
  let stopping = new AbortController();

  function runOnce(): Promise<TResult> {
    const next = chain.then(() => options.run(stopping.signal));
    chain = next.catch(() => undefined);
    return next;
  }

  function schedule(): void {
    if (isStopped) return;
    timer = setTimeout(() => {
      timer = null;
      runOnce().catch(options.onError).finally(schedule);
    }, options.intervalMs);
    timer.unref();
  }

  return {
    start() {
      if (!isStopped) return;
      isStopped = false;
      stopping = new AbortController();
      schedule();
    },
    async stop() {
      isStopped = true;
      stopping.abort();
      if (timer) clearTimeout(timer);
      timer = null;
      await chain;
    },
    runOnce,
  };
}
