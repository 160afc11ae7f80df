/** Data the journeys rely on beyond the demo seed; shared by the server launcher and the specs. */
export const E2E_PASSWORD = 'Journey!234';

/** A second MSP where one of Northwind's client users is also a client: the "choose an MSP" journey. */
export const SECOND_MSP = { customDomain: 'contoso-it', name: 'Contoso IT Services' } as const;

/**
 * A Northwind technician whose role has client-user management but not technician-user management:
 * the admin menu shows them Contacts instead of Companies (01 §6, decisions 12), so the Contacts screen has a journey.
 */
export const CLIENT_DESK = { roleName: 'Client desk', firstName: 'Casey', lastName: 'Deskett', email: 'casey.deskett@northwind-it.example' } as const;

/** The queue journeys' tickets (e2e/queue-seed.ts) and where the PSA simulator listens, so a journey can read what landed there. */
export const QUEUE_JOURNEY = { ticketCount: 30, summaryPrefix: 'Label printer offline' } as const;
/**
 * The SLA alerts journey: a Tier3 technician only that journey signs in as, and five Tier3 tickets
 * (nobody else is given them: the other journeys' technicians are Tier1 and Tier2, and the demo admin
 * never presses next) on a subtype with an 8-hour SLA, one opened 9 hours ago (past every threshold:
 * 50, 75, 90 and 100 %), one 4½ hours ago (56 %: only the 50 % alert, for 1½ hours more) and three just now.
 */
export const SLA_JOURNEY = {
  technician: { firstName: 'Priya', lastName: 'Raman', email: 'priya.raman@northwind-it.example', tierLevel: 'Tier3' },
  slaHours: 8,
  overdue: { summary: 'Payroll server unreachable', openedHoursAgo: 9 },
  halfway: { summary: 'Shared mailbox permissions', openedHoursAgo: 4.5 },
  // Three more Tier3 tickets, just opened (no alert for hours), so that "next" fills the technician's five
  // with Tier3 tickets only and no older Tier1 ticket of the other journeys adds alerts of its own.
  fresh: [
    { summary: 'New starter laptop setup', openedHoursAgo: 0 },
    { summary: 'VPN certificate renewal', openedHoursAgo: 0 },
    { summary: 'Conference room display', openedHoursAgo: 0 },
  ],
} as const;
/**
 * The onboarding journey's contacts import with cancel and resume: one simulator company only that journey saves, with
 * enough contacts that the directory (178 demo contacts + these) is more than one ConnectWise page of 1,000, so a slow
 * second page leaves time to cancel. The demo MSPs' copies were made before it is added, so no other journey sees it.
 */
export const IMPORT_JOURNEY = { companyName: 'Tailspin Contact Imports', contacts: 1_100 } as const;
export const simulatorPort = (serverPort: number): number => serverPort + 1;

/** Where the fake AI model (packages/assistant/test/llm-server.ts) listens during the journeys: the app's port + 2. */
export const llmPort = (serverPort: number): number => serverPort + 2;

/** The email connector journey's help-desk mailbox: a local IMAP server (hoodiecrow-imap) at the app's port + 3. */
export const MAILBOX_JOURNEY = { address: 'help@northwind-it.example', appPassword: 'journey-app-pass-4Kq9' } as const;
export const imapPort = (serverPort: number): number => serverPort + 3;
