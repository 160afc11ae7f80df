import type { THistoricalTicket } from '@switchboard/psa-sim';

/**
 * The deterministic stratified hold-out of the demo history that the benches share: every fifth ticket of
 * each subtype (ordered by id, starting with the third) is held out; `offset` 0–4 gives the five folds.
 */
export function splitHoldOut(tickets: readonly THistoricalTicket[], every = 5, offset = 2): { train: THistoricalTicket[]; test: THistoricalTicket[] } {
  const bySubtype = new Map<string, THistoricalTicket[]>();
  for (const t of [...tickets].sort((a, b) => a.id - b.id)) {
    const key = `${t.type}/${t.subType}`;
    bySubtype.set(key, [...(bySubtype.get(key) ?? []), t]);
  }
  const train: THistoricalTicket[] = [];
  const test: THistoricalTicket[] = [];
  for (const group of bySubtype.values()) group.forEach((t, i) => (i % every === offset % every ? test : train).push(t));
  return { train, test };
}
