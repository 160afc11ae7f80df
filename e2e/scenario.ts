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
export const simulatorPort = (serverPort: number): number => serverPort + 1;

/** Where the fake AI model (packages/assistant/test/llm-server.ts) listens during the journeys: the app's port + 2. */
export const llmPort = (serverPort: number): number => serverPort + 2;
