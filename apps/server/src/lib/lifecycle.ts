/** What a request in flight is, for the shutdown log: never its query string or body. */
export interface TInFlightRequest {
  id: string;
  method: string;
  route: string;
  startedAt: number;
}

/**
 * The process's serving state, shared by readiness (503 once shutdown begins) and graceful
 * shutdown (which requests it is still waiting for).
 */
export interface TLifecycle {
  isShuttingDown(): boolean;
  beginShutdown(): void;
  requestStarted(request: TInFlightRequest): void;
  requestFinished(id: string): void;
  inFlight(): TInFlightRequest[];
}

export function createLifecycle(): TLifecycle {
  let shuttingDown = false;
  const requests = new Map<string, TInFlightRequest>();
  return {
    isShuttingDown: () => shuttingDown,
    beginShutdown: () => {
      shuttingDown = true;
    },
    requestStarted: (request) => void requests.set(request.id, request),
    requestFinished: (id) => void requests.delete(id),
    inFlight: () => [...requests.values()],
  };
}
