import { loadDemoData, type THistoricalTicket } from '@switchboard/psa-sim';

export type { THistoricalTicket };

/** 520 closed help-desk tickets of the demo MSP: the history the PSA simulator seeds, read from its own data. */
export function loadHistoricalTickets(): THistoricalTicket[] {
  return loadDemoData().historicalTickets;
}
