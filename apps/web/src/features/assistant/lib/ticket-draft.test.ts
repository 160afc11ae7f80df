import { describe, expect, it } from 'vitest';
import type { TTicketingConfiguration } from '@switchboard/contracts';
import { applyProposal, bestGuesses, boardCatalogueOf, chooseBoard, chooseCategory, chooseSubcategory, emptyDraft, formFromDraft, isOnboardingDraft, keepEditsOverDraft } from './ticket-draft';
import { ticketDraft } from '../test/assistant-fixtures';

const sub = (subTypeId: number, subTypeName: string, priority: string, tier: 'Tier1' | 'Tier2' | 'Tier3', sla: number) => ({
  subTypeId,
  subTypeName,
  priorityId: subTypeId * 10,
  priority,
  priorityScore: 3,
  subTypeScore: 2,
  tier,
  slaDeadLineInHours: sla,
  isNew: false as const,
  typeAssociationIds: [],
});

const CONFIG: TTicketingConfiguration = {
  mspCustomDomain: 'northwind',
  psaType: 'CONNECTWISE',
  isConfigured: true,
  connectWiseConfig: {
    defaultCompanyId: null,
    defaultCompanyName: null,
    boardTicketSync: [],
    syncClientsTypeId: null,
    boardDetails: [
      {
        boardId: 1,
        boardName: 'Service Desk',
        newCreatingTicketStatus: null,
        newCreatingTicketStatusId: null,
        closingTicketStatus: null,
        closingTicketStatusId: null,
        priorities: [],
        mspConnectWiseBoardTypes: [
          { typeId: 11, typeName: 'Email', isNew: false, mspConnectWiseBoardSubTypes: [sub(111, 'Outlook', 'Priority 2 - High', 'Tier2', 4)] },
          { typeId: 12, typeName: 'Training/Onboarding', isNew: false, mspConnectWiseBoardSubTypes: [sub(121, 'New Employee Onboarding', 'Priority 3 - Medium', 'Tier1', 24)] },
        ],
      },
      { boardId: 2, boardName: 'Alerts', newCreatingTicketStatus: null, newCreatingTicketStatusId: null, closingTicketStatus: null, closingTicketStatusId: null, priorities: [], mspConnectWiseBoardTypes: [] },
    ],
  },
};
const catalogue = boardCatalogueOf(CONFIG);

describe('ticket draft dependent fields (02 §4)', () => {
  it('a subcategory fills priority, tier and SLA from the board configuration (R-265)', () => {
    const draft = chooseSubcategory(catalogue, chooseCategory(chooseBoard(catalogue, emptyDraft(), 1), 11), 111);
    expect(draft).toMatchObject({ boardId: 1, categoryId: 11, subcategoryId: 111, priorityLabel: 'Priority 2 - High', priorityId: 1110, tier: 'Tier2', slaHours: 4 });
  });

  it('changing the board clears category, subcategory, priority, tier, duration and item (R-263)', () => {
    const filled = { ...chooseSubcategory(catalogue, chooseCategory(chooseBoard(catalogue, emptyDraft(), 1), 11), 111), itemId: 5, durationMinutes: 60 };
    const moved = chooseBoard(catalogue, filled, 2);
    expect(moved).toMatchObject({ boardId: 2, categoryId: null, subcategoryId: null, priorityId: null, priorityLabel: null, tier: null, slaHours: null, durationMinutes: null, itemId: null });
  });

  it('changing the category clears the subcategory and what it filled (R-264)', () => {
    const filled = chooseSubcategory(catalogue, chooseCategory(chooseBoard(catalogue, emptyDraft(), 1), 11), 111);
    const changed = chooseCategory(filled, 12);
    expect(changed).toMatchObject({ boardId: 1, categoryId: 12, subcategoryId: null, priorityLabel: null, tier: null, slaHours: null });
  });

  it('another subcategory clears a Duration chosen by hand: the new SLA applies (R-265; the old duration stayed)', () => {
    const filled = { ...chooseSubcategory(catalogue, chooseCategory(chooseBoard(catalogue, emptyDraft(), 1), 11), 111), durationMinutes: 30 };
    const moved = chooseSubcategory(catalogue, chooseCategory(filled, 12), 121);
    expect(moved).toMatchObject({ subcategoryId: 121, slaHours: 24, durationMinutes: null });
    expect(chooseSubcategory(catalogue, filled, 111)).toMatchObject({ durationMinutes: null });
  });

  it('a proposal naming a subtype that is not on the board is dropped, not kept', () => {
    expect(applyProposal(catalogue, emptyDraft(), { boardId: 1, categoryId: 11, subcategoryId: 999 })).toMatchObject({ boardId: 1, categoryId: 11, subcategoryId: null, tier: null });
    expect(applyProposal(catalogue, emptyDraft(), { boardId: 7, categoryId: 11, subcategoryId: 111 })).toMatchObject({ boardId: null, categoryId: null });
  });

  it('when the engine is not sure, the only board of a one-board MSP is chosen (the client had to pick "Help Desk" from a list of one); with several boards none is', () => {
    const notSure = ticketDraft({ categorisation: { ...ticketDraft().categorisation, abstained: true, connectWiseDetails: null, autotaskDetails: null } });
    const [firstBoard] = catalogue.boards;
    if (!firstBoard) throw new Error('no board');
    expect(formFromDraft({ ...catalogue, boards: [firstBoard] }, notSure)).toMatchObject({ boardId: 1, categoryId: null, subcategoryId: null });
    expect(formFromDraft(catalogue, notSure)).toMatchObject({ boardId: null });
  });

  it('knows a new-employee onboarding draft (R-277)', () => {
    expect(isOnboardingDraft(catalogue, applyProposal(catalogue, emptyDraft(), { boardId: 1, categoryId: 12, subcategoryId: 121 }))).toBe(true);
    expect(isOnboardingDraft(catalogue, applyProposal(catalogue, emptyDraft(), { boardId: 1, categoryId: 11, subcategoryId: 111 }))).toBe(false);
  });
});

describe('best guesses when the engine is not sure', () => {
  it('offers the likeliest candidates that exist on the board, best first, at most three, none below 5 %', () => {
    const guesses = bestGuesses(catalogue, [
      { boardId: 1, typeId: 11, subTypeId: 111, confidence: 0.59 },
      { boardId: 1, typeId: 11, subTypeId: 999, confidence: 0.2 },
      { boardId: 1, typeId: 12, subTypeId: 121, confidence: 0.1 },
      { boardId: 2, typeId: 11, subTypeId: 111, confidence: 0.04 },
    ]);
    expect(guesses).toEqual([
      { boardId: 1, categoryId: 11, subcategoryId: 111, label: 'Email / Outlook' },
      { boardId: 1, categoryId: 12, subcategoryId: 121, label: 'Training/Onboarding / New Employee Onboarding' },
    ]);
  });

  it('a chosen guess fills the form as the proposal would (priority, tier, SLA)', () => {
    const [guess] = bestGuesses(catalogue, [{ boardId: 1, typeId: 11, subTypeId: 111, confidence: 0.59 }]);
    if (!guess) throw new Error('no guess');
    expect(applyProposal(catalogue, emptyDraft(), guess)).toMatchObject({ boardId: 1, categoryId: 11, subcategoryId: 111, priorityLabel: 'Priority 2 - High', tier: 'Tier2', slaHours: 4 });
  });
});

describe('a later chat round keeps what the person changed in the form (their edits were replaced by the new proposal)', () => {
  const first = ticketDraft({ categorisation: { ...ticketDraft().categorisation, abstained: true, connectWiseDetails: null } });
  const second = ticketDraft({ title: 'Server title', description: 'Server description, round two', severity: 'High', categorisation: ticketDraft().categorisation });

  it('keeps a chosen guess, title, impact, duration and onboarding fields; takes the new proposal where nothing was changed', () => {
    const shown = formFromDraft(catalogue, first);
    const edited = { ...applyProposal(catalogue, shown, { boardId: 1, categoryId: 12, subcategoryId: 121 }), title: 'My own title', impact: 'High' as const, durationMinutes: 45, onboarding: { ...shown.onboarding, firstName: 'Nina' } };
    const kept = keepEditsOverDraft(catalogue, first, edited, second);
    expect(kept).toMatchObject({ title: 'My own title', impact: 'High', durationMinutes: 45, boardId: 1, categoryId: 12, subcategoryId: 121, slaHours: 24, tier: 'Tier1' });
    expect(kept.onboarding.firstName).toBe('Nina');
    // Not changed by the person: the new round's values.
    expect(kept).toMatchObject({ description: 'Server description, round two', severity: 'High' });
  });

  it('applies the new proposal when the person picked no category', () => {
    const shown = formFromDraft(catalogue, first);
    expect(keepEditsOverDraft(catalogue, first, { ...shown, title: 'Mine' }, second)).toMatchObject({ title: 'Mine', boardId: 1, categoryId: 11, subcategoryId: 111, tier: 'Tier2', slaHours: 4 });
  });

  it('keeps a technician\'s chosen company and contact with the name, e-mail and phone they filled', () => {
    const tech = ticketDraft({ psaCompanyId: null, psaContactId: null, name: '', emailId: '', phone: '' });
    const shown = formFromDraft(catalogue, tech);
    const chosen = { ...shown, companyId: '19', contactId: '501', name: 'Tanya Beaulieu', email: 'tanya@brightwater.example', phone: '3035550119' };
    expect(keepEditsOverDraft(catalogue, tech, chosen, { ...tech, title: 'Round two' })).toMatchObject({ companyId: '19', contactId: '501', name: 'Tanya Beaulieu', email: 'tanya@brightwater.example', phone: '3035550119', title: 'Round two' });
  });
});
