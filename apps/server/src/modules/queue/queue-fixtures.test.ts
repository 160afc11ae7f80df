// Fixtures for the queue API tests (named *.test.ts so it may use the simulator; it holds no tests itself).
import { boardConfigs, boardPriorities, boardSubtypes, boardTypes, psaTicketingConfigs } from '@switchboard/db';
import type { PsaClient } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp, type TSimulatorApp } from '../../../test/psa-simulator';
import { buildUser, signedInClient, type TTestMsp, type TTestUser } from '../../../test/factories';
import { upsertTicketCopies, type TTicketCopy } from '../boards/ticket-copies.repository';

/**
 * A queue to test against: an MSP connected to the PSA simulator (ConnectWise), one configured
 * board of the simulator with two subtypes (Tier1 / Tier2, their scores and SLA hours), and ticket
 * copies that exist in the simulator, so every PSA write of the queue lands on a real ticket.
 */
export interface TQueueFixture {
  msp: TTestMsp;
  admin: TestClient;
  adminUser: TTestUser;
  direct: PsaClient;
  boardId: number;
  typeId: number;
  subtypes: { tier1: number; tier2: number };
  priorityId: number;
  newStatusId: number;
  closingStatusId: number;
  companyId: number;
}

export function directConnectWise(sim: TPsaSimulator, key: string): PsaClient {
  return simulatorPsaClient(sim, 'connectwise', key);
}

/**
 * Moves the app's clock on to the next 09:00 UTC. A timer session that crosses midnight is flagged and its time
 * entry waits for the technician's confirmation, so a test whose sessions span minutes or hours would see flags it
 * does not expect when run late in the evening.
 */
export function moveClockToNineUtc(t: TTestApp): void {
  const now = t.deps.now();
  const nine = new Date(now);
  nine.setUTCHours(9, 0, 0, 0);
  if (nine <= now) nine.setUTCDate(nine.getUTCDate() + 1);
  t.advanceClock(nine.getTime() - now.getTime());
}

/**
 * The simulator, a test app and a queue fixture for the test file, started in `beforeAll` (with
 * `tickets` raised in the simulator and copied) and handed to `onReady`; closed in `afterAll`.
 * `enabled: false` starts nothing.
 */
export function withQueueFixture(
  options: { tickets?: { count: number; tier: 'Tier1' | 'Tier2' }; enabled?: boolean },
  onReady: (ready: TSimulatorApp & { fixture: TQueueFixture }) => unknown,
): void {
  withSimulatorApp({ enabled: options.enabled }, async ({ t, sim }) => {
    const fixture = await createQueueFixture(t, sim);
    if (options.tickets) await createTickets(t, fixture, options.tickets.count, { tier: options.tickets.tier });
    await onReady({ t, sim, fixture });
  });
}

export async function createQueueFixture(t: TTestApp, sim: TPsaSimulator): Promise<TQueueFixture> {
  const { msp, adminUser, admin } = await buildConnectedMsp(t, sim, 'connectwise', { user: { tierLevel: 'Tier3', password: null } });
  const direct = directConnectWise(sim, `queue-${msp.id}`);
  const [board] = (await direct.listBoards()).filter((each) => each.isActive);
  if (!board) throw new Error('the simulator has no board');
  const statuses = await direct.listStatuses(board.id);
  const newStatus = statuses.find((status) => status.name === 'New') ?? statuses[0];
  const closing = statuses.find((status) => status.isClosed);
  const [type] = await direct.listTypes(board.id);
  const subtypes = await direct.listSubtypes(board.id);
  const [priority] = await direct.listPriorities();
  const companies: number[] = [];
  for await (const company of direct.streamCompanies()) {
    companies.push(company.id);
    break;
  }
  const [tier1, tier2] = subtypes;
  const [companyId] = companies;
  if (!newStatus || !closing || !type || !tier1 || !tier2 || !priority || companyId === undefined) throw new Error('the simulator lacks reference data for the queue fixture');
  const db = t.deps.database.db;
  await db.insert(psaTicketingConfigs).values({ mspId: msp.id, psaType: 'CONNECTWISE' });
  await db.insert(boardConfigs).values({
    mspId: msp.id,
    psaType: 'CONNECTWISE',
    boardId: board.id,
    boardName: board.name,
    newStatusId: newStatus.id,
    newStatusName: newStatus.name,
    closingStatusId: closing.id,
    closingStatusName: closing.name,
  });
  await db.insert(boardPriorities).values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, priorityId: priority.id, priorityName: priority.name, priorityScore: 50 });
  await db.insert(boardTypes).values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, typeId: type.id, typeName: type.name, position: 0 });
  await db.insert(boardSubtypes).values([
    { mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, typeId: type.id, subtypeId: tier1.id, subtypeName: tier1.name, subtypeScore: 10, tier: 'Tier1', slaHours: 8, position: 0 },
    { mspId: msp.id, psaType: 'CONNECTWISE', boardId: board.id, typeId: type.id, subtypeId: tier2.id, subtypeName: tier2.name, subtypeScore: 80, tier: 'Tier2', slaHours: 4, position: 1 },
  ]);
  return { msp, admin, adminUser, direct, boardId: board.id, typeId: type.id, subtypes: { tier1: tier1.id, tier2: tier2.id }, priorityId: priority.id, newStatusId: newStatus.id, closingStatusId: closing.id, companyId };
}

/** Creates tickets in the simulator and stores their copies, as the ticket sync would. */
export async function createTickets(t: TTestApp, fixture: TQueueFixture, count: number, options: { tier?: 'Tier1' | 'Tier2'; createdAt?: Date; prefix?: string } = {}): Promise<number[]> {
  const subtypeId = options.tier === 'Tier2' ? fixture.subtypes.tier2 : fixture.subtypes.tier1;
  const copies: TTicketCopy[] = [];
  for (let index = 0; index < count; index++) {
    const ticket = await fixture.direct.createTicket({
      idempotencyKey: `${options.prefix ?? 'q'}-${fixture.msp.id}-${Date.now()}-${index}-${Math.random()}`,
      summary: `${options.prefix ?? 'Queue ticket'} ${index + 1}`,
      description: 'Printer offline',
      boardId: fixture.boardId,
      companyId: fixture.companyId,
      typeId: fixture.typeId,
      subtypeId,
      priorityId: fixture.priorityId,
    });
    copies.push({
      externalId: ticket.id,
      ticketNumber: ticket.number,
      summary: ticket.summary,
      description: 'Printer offline',
      board: { id: fixture.boardId, name: 'Board' },
      type: { id: fixture.typeId, name: 'Type' },
      subtype: { id: subtypeId, name: options.tier ?? 'Tier1' },
      priority: { id: fixture.priorityId, name: 'Priority' },
      status: { id: ticket.statusId, name: ticket.statusName },
      company: { id: fixture.companyId, name: 'Company' },
      isClosed: false,
      createdAt: new Date((options.createdAt ?? new Date()).getTime() + index),
    });
  }
  await upsertTicketCopies(t.deps.database.db, fixture.msp.id, 'CONNECTWISE', copies);
  return copies.map((copy) => Number(copy.externalId));
}

/** Ticket copies only (no PSA ticket behind them): for tests that never write to the PSA. */
export async function createTicketCopies(t: TTestApp, fixture: TQueueFixture, count: number, firstExternalId: number): Promise<number[]> {
  const base = new Date('2026-01-01T00:00:00Z').getTime();
  const copies: TTicketCopy[] = Array.from({ length: count }, (_, index) => ({
    externalId: firstExternalId + index,
    summary: `Copy ${index + 1}`,
    board: { id: fixture.boardId, name: 'Board' },
    type: { id: fixture.typeId, name: 'Type' },
    subtype: { id: fixture.subtypes.tier1, name: 'Tier1' },
    priority: { id: fixture.priorityId, name: 'Priority' },
    isClosed: false,
    // Older tickets rank higher (age), so the expected order is the creation order.
    createdAt: new Date(base + index * 60_000),
  }));
  await upsertTicketCopies(t.deps.database.db, fixture.msp.id, 'CONNECTWISE', copies);
  return copies.map((copy) => Number(copy.externalId));
}

/** A technician of the fixture's MSP, signed in. */
export async function technician(t: TTestApp, fixture: TQueueFixture, options: { tierLevel?: 'Tier1' | 'Tier2' | 'Tier3' | 'NoTier'; psaMemberId?: string; role?: 'Technician' | 'Admin'; ip?: string } = {}) {
  const user = await buildUser(t, fixture.msp, { role: options.role ?? 'Technician', tierLevel: options.tierLevel ?? 'Tier1', password: null, ...(options.psaMemberId ? { psaMemberId: options.psaMemberId } : {}) });
  return { user, client: await signedInClient(t, user, options.ip) };
}
