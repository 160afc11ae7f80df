import { readFileSync } from 'node:fs';
import { z } from 'zod';

const ZDemoContact = z.object({
  firstName: z.string(),
  lastName: z.string(),
  title: z.string(),
  email: z.string(),
  phone: z.string(),
  isPrimary: z.boolean(),
});

const ZDemoCompanyFile = z.array(
  z.object({
    id: z.number().int(),
    name: z.string(),
    identifier: z.string(),
    companyType: z.string(),
    industry: z.string(),
    city: z.string(),
    state: z.string(),
    phone: z.string(),
    website: z.string(),
    contacts: z.array(ZDemoContact),
  }),
);

const ZDemoTechnicianFile = z.array(
  z.object({
    id: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    identifier: z.string(),
    tier: z.string(),
    title: z.string(),
    skills: z.array(z.string()),
  }),
);

const ZBoardTemplate = z.object({
  boardName: z.string(),
  statuses: z.array(z.object({ name: z.string(), isNewTicketStatus: z.boolean().optional(), isClosingStatus: z.boolean().optional() })),
  priorities: z.array(z.object({ name: z.string(), priorityScore: z.number() })),
  types: z.array(
    z.object({
      typeName: z.string(),
      subTypes: z.array(
        z.object({
          subTypeName: z.string(),
          priority: z.string(),
          tier: z.string(),
          slaDeadLineInHours: z.number(),
          subTypeScore: z.number(),
        }),
      ),
    }),
  ),
});

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

export type TDemoCompanyRecord = z.infer<typeof ZDemoCompanyFile>[number];
export type TDemoTechnicianRecord = z.infer<typeof ZDemoTechnicianFile>[number];
export type TBoardTemplate = z.infer<typeof ZBoardTemplate>;
export type THistoricalTicket = z.infer<typeof ZHistoricalTicket>;

export interface TDemoDataFiles {
  companies: TDemoCompanyRecord[];
  technicians: TDemoTechnicianRecord[];
  boardTemplate: TBoardTemplate;
  historicalTickets: THistoricalTicket[];
}

// The demo data ships with this package (packages/psa-sim/data/, see the README), so a clone runs alone.
export const DEFAULT_DATA_DIRECTORY = new URL('../data/', import.meta.url);

const cache = new Map<string, TDemoDataFiles>();

function readJson(directory: URL, name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, directory), 'utf8'));
}

// Files are read once per directory because every simulator instance and demoDirectory() call needs them.
export function loadDemoData(directory: URL = DEFAULT_DATA_DIRECTORY): TDemoDataFiles {
  const cached = cache.get(directory.href);
  if (cached) return cached;
  const ticketLines = readFileSync(new URL('historical-tickets.jsonl', directory), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const files: TDemoDataFiles = {
    companies: ZDemoCompanyFile.parse(readJson(directory, 'demo-companies.json')),
    technicians: ZDemoTechnicianFile.parse(readJson(directory, 'demo-technicians.json')),
    boardTemplate: ZBoardTemplate.parse(readJson(directory, 'default-board-template.json')),
    historicalTickets: ticketLines.map((line) => ZHistoricalTicket.parse(JSON.parse(line))),
  };
  cache.set(directory.href, files);
  return files;
}
