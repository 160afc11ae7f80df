import { readFileSync } from 'node:fs';
import { z } from 'zod';

const ZHistoricalTicket = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  contactEmail: z.string(),
  createdAt: z.string(),
  summary: z.string(),
  description: z.string(),
  type: z.string(),
  subType: z.string(),
  priority: z.string(),
  technicianIdentifier: z.string(),
  resolution: z.string(),
  timeSpentMinutes: z.number(),
  closedAt: z.string(),
});
export type THistoricalTicket = z.infer<typeof ZHistoricalTicket>;

/** 520 closed help-desk tickets of the demo MSP (the same history the PSA simulator seeds). */
export function loadHistoricalTickets(): THistoricalTicket[] {
  return readFileSync(new URL('./fixtures/historical-tickets.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ZHistoricalTicket.parse(JSON.parse(line)));
}
