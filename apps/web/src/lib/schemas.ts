import { z } from 'zod';
import { ZPsaContactRecord, ZPsaMemberRecord } from '@switchboard/contracts';

/**
 * Every schema the browser validates answers with: the contracts' schemas and the few the browser
 * keeps for itself. apiFetch loads this module on first use, so zod and the schema half of the
 * contracts stay off the sign-in route's first load (issue #6 §5); nothing imports it statically.
 */
export * from '@switchboard/contracts';

/** GET /dev/outbox (non-production): the contracts leave dev-only shapes out, so the browser keeps its own. */
export const ZOutboxMail = z.object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), createdAt: z.string() });
export const ZOutbox = z.object({ items: z.array(ZOutboxMail) });

export const ZTechnicianActivationRecords = z.object({ records: z.array(ZPsaMemberRecord) });
export const ZClientActivationRecords = z.object({ records: z.array(ZPsaContactRecord) });
/** A-035 answers `{ user }`; sign-up only needs to know it succeeded. */
export const ZAddedTechnician = z.object({ user: z.object({ id: z.string() }) });

/** A-026 (boards): the PSA's boards (Autotask: queues) as the board screen lists them. */
export const ZPsaBoardList = z.array(z.object({ id: z.number().int(), name: z.string(), isActive: z.boolean() }));
export type TPsaBoardListItem = z.infer<typeof ZPsaBoardList>[number];
/** the created (or reused) status. */
export const ZCreatedStatusResponse = z.object({ statusId: z.number().int(), statusName: z.string(), isClosed: z.boolean() });
/** departments and locations a custom board can live in. */
export const ZNamedList = z.array(z.object({ id: z.number().int(), name: z.string() }));
/** the created board. */
export const ZCreatedBoardResponse = z.object({ boardId: z.number().int(), boardName: z.string() });
/** A-026's answer, as far as the Team screen needs it (board id and name). */
export const ZTeamBoards = z.array(z.looseObject({ id: z.number(), name: z.string() }));
/** a board's statuses, as far as the queue's edit form needs them. */
export const ZPsaStatusList = z.array(z.looseObject({ id: z.number().int(), name: z.string(), isClosed: z.boolean() }));
/** the PSA's communication types for a new contact's e-mail and phone (empty on Autotask). */
export const ZCommunicationTypes = z.array(z.object({ id: z.number(), name: z.string(), isEmail: z.boolean().optional(), isPhone: z.boolean().optional() }).loose());
