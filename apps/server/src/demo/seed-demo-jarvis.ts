import { and, count, eq } from 'drizzle-orm';
import { BOARD_DEFAULTS, WIZARD_STEPS, type TEditableBoard } from '@switchboard/contracts';
import { psaTickets } from '@switchboard/db';
import { loadDemoData } from '@switchboard/psa-sim';
import type { TAppDeps } from '../app-deps';
import { findTicketingConfig, NO_EXTRAS, replaceBoard, upsertTicketingConfig } from '../modules/boards/boards.repository';
import { upsertTicketCopies } from '../modules/boards/ticket-copies.repository';
import { saveWizardProgress } from '../modules/wizard/wizard.repository';
import { demoHelpDeskCategories, findDemoHelpDesk } from './demo-help-desk';

const PSA_TYPE = 'CONNECTWISE' as const;

/**
 * What Jarvis needs in the demo (issue #9) and no other seed gives: the MSP's board configuration
 * (the simulator's Help Desk board with the template's tiers, priorities and SLA hours) and the
 * demo history as closed ticket copies, keyed by the simulator's own ticket ids so a later batch
 * sync updates the same rows. Idempotent: an MSP that has a board configuration or ticket copies
 * keeps them.
 */
export async function seedDemoJarvis(deps: TAppDeps, mspId: string): Promise<{ board: boolean; tickets: number }> {
  const db = deps.database.db;
  const data = loadDemoData();
  const client = await deps.psaClients.forMsp(mspId);
  const helpDesk = await findDemoHelpDesk(client, data);
  if (!helpDesk) return { board: false, tickets: 0 };
  const { types, subtypes, priorities, statuses, categoryOf } = await demoHelpDeskCategories(client, helpDesk);

  let board = false;
  if (!(await findTicketingConfig(db, mspId, PSA_TYPE))) {
    const templateSubtype = (typeName: string, subTypeName: string) => data.boardTemplate.types.find((type) => type.typeName === typeName)?.subTypes.find((subType) => subType.subTypeName === subTypeName);
    const priorityScore = (name: string) => data.boardTemplate.priorities.find((priority) => priority.name === name)?.priorityScore ?? BOARD_DEFAULTS.priorityScore;
    const newStatus = statuses.find((status) => data.boardTemplate.statuses.some((template) => template.name === status.name && template.isNewTicketStatus)) ?? statuses.find((status) => !status.isClosed);
    const closedStatus = statuses.find((status) => data.boardTemplate.statuses.some((template) => template.name === status.name && template.isClosingStatus)) ?? statuses.find((status) => status.isClosed);
    const editable: TEditableBoard & { boardId: number } = {
      boardId: helpDesk.id,
      boardName: helpDesk.name,
      newCreatingTicketStatus: newStatus?.name ?? null,
      newCreatingTicketStatusId: newStatus?.id ?? null,
      closingTicketStatus: closedStatus?.name ?? null,
      closingTicketStatusId: closedStatus?.id ?? null,
      priorities: priorities.map((priority) => ({ priorityId: priority.id, priority: priority.name, priorityScore: priorityScore(priority.name) })),
      mspConnectWiseBoardTypes: types.map((type) => ({
        typeId: type.id,
        typeName: type.name,
        isNew: false,
        tempIndex: null,
        mspConnectWiseBoardSubTypes: subtypes
          .filter((subtype) => subtype.typeIds.includes(type.id))
          .map((subtype) => {
            const template = templateSubtype(type.name, subtype.name);
            const priority = priorities.find((candidate) => candidate.name === template?.priority);
            return {
              subTypeId: subtype.id,
              subTypeName: subtype.name,
              priorityId: priority?.id ?? null,
              priority: priority?.name ?? null,
              priorityScore: priority ? priorityScore(priority.name) : BOARD_DEFAULTS.priorityScore,
              subTypeScore: template?.subTypeScore ?? BOARD_DEFAULTS.subTypeScore,
              tier: template?.tier === 'Tier2' || template?.tier === 'Tier3' ? template.tier : 'Tier1',
              slaDeadLineInHours: template?.slaDeadLineInHours ?? BOARD_DEFAULTS.slaHours.CONNECTWISE,
              isNew: false,
              tempIndex: null,
              typeAssociationIds: subtype.typeIds,
            };
          }),
      })),
    };
    await db.transaction(async (tx) => {
      await upsertTicketingConfig(tx, mspId, PSA_TYPE, { boardTicketSync: [{ boardId: helpDesk.id, boardName: helpDesk.name }] }, deps.now());
      await replaceBoard(tx, mspId, PSA_TYPE, editable, NO_EXTRAS, deps.now());
      // The demo MSP is onboarded: its setup wizard is finished on this board, not waiting at step 1 with no board chosen.
      const steps = WIZARD_STEPS.map((step) => step.step);
      await saveWizardProgress(tx, mspId, { currentStep: steps.length, completedSteps: steps, boardId: helpDesk.id, boardName: helpDesk.name, finishedAt: deps.now() }, deps.now());
    });
    board = true;
  }

  const [existing] = await db.select({ value: count() }).from(psaTickets).where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, PSA_TYPE)));
  if ((existing?.value ?? 0) > 0) return { board, tickets: 0 };
  const tickets = await upsertTicketCopies(
    db,
    mspId,
    PSA_TYPE,
    data.historicalTickets.map((ticket) => {
      const { typeId, subtypeId } = categoryOf(ticket);
      return {
        externalId: ticket.id,
        ticketNumber: String(ticket.id),
        summary: ticket.summary,
        description: ticket.description,
        board: { id: helpDesk.id, name: helpDesk.name },
        type: { id: typeId, name: ticket.type },
        subtype: { id: subtypeId, name: ticket.subType },
        priority: { id: priorities.find((priority) => priority.name === ticket.priority)?.id ?? null, name: ticket.priority },
        status: { id: null, name: 'Closed' },
        company: { id: ticket.companyId, name: null },
        isClosed: true,
        resolution: ticket.resolution,
        timeSpentMinutes: ticket.timeSpentMinutes,
        createdAt: new Date(ticket.createdAt),
        closedAt: new Date(ticket.closedAt),
      };
    }),
    deps.now(),
  );
  return { board, tickets };
}
