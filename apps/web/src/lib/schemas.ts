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
