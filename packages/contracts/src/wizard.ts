import { z } from 'zod';
import type { TEditableBoard } from './board-config';

/** The 6 steps of the integration setup wizard (01 §2, R-182, R-344). */
export const WIZARD_STEPS = [
  { step: 1, title: 'Connect and board', description: 'Connect your PSA and choose the board Switchboard works on.' },
  { step: 2, title: 'Technicians', description: 'Import PSA members as technicians, each with a tier and a role.' },
  { step: 3, title: 'Teams', description: 'Create teams on the board; every member needs a tier.' },
  { step: 4, title: 'Clients', description: 'Import the client companies you support.' },
  { step: 5, title: 'Contacts', description: 'Choose the people at your clients who will raise tickets.' },
  { step: 6, title: 'Finish', description: 'Sync client and contact types automatically and finish.' },
] as const;
export const WIZARD_STEP_COUNT = WIZARD_STEPS.length;

/** Step 5 for a first-time admin: what the buttons do, what saving changes (only Switchboard's copy) and what comes next. */
export const WIZARD_CONTACTS_STEP_HELP =
  'Press Load contacts to read the contacts in your PSA. Tick the people who will raise tickets, then press Save. Switchboard keeps its own copy of them (a contact without a company in the PSA is skipped); nothing is sent to them and nothing changes in your PSA. Once at least one contact is saved, the wizard moves on to step 6.';

export const ZWizardStep = z.coerce.number().int().min(1).max(WIZARD_STEP_COUNT);
export type TWizardStep = z.infer<typeof ZWizardStep>;

/** The MSP's stored wizard progress (GET /db/{msp}/wizard). */
export const ZWizardProgress = z.object({
  currentStep: z.number().int().min(1).max(WIZARD_STEP_COUNT),
  completedSteps: z.array(z.number().int()),
  boardId: z.number().int().nullable(),
  boardName: z.string().nullable(),
  isFinished: z.boolean(),
  finishedAt: z.string().nullable(),
});
export type TWizardProgress = z.infer<typeof ZWizardProgress>;

export const ZWizardOpenBody = z.object({ step: ZWizardStep });
export type TWizardOpenBody = z.infer<typeof ZWizardOpenBody>;

/** Completing step 1 names the board that was configured; the other steps send only their number. */
export const ZWizardCompleteBody = z.object({
  step: ZWizardStep,
  boardId: z.number().int().positive().optional(),
  boardName: z.string().trim().min(1).max(200).optional(),
});
export type TWizardCompleteBody = z.infer<typeof ZWizardCompleteBody>;

export const WIZARD_MESSAGES = {
  stepLocked: 'Finish the previous step first.',
  notCurrentStep: 'Only the step you are on can be completed.',
  notConnected: 'Connect your PSA before you continue.',
  boardRequired: 'Choose a board before you continue.',
  boardNotReady: 'The board needs at least one type with a saved subtype, and no type may have only new subtypes. Add them and save the board.',
  teamRequired: 'Create at least one team before you continue.',
  technicianRequired: 'Import at least one technician before you continue.',
  /** step 4 completes by adding clients; the API alone cannot skip it. */
  clientRequired: 'Save at least one client company before you continue.',
  /** step 5 completes by adding contacts. */
  contactRequired: 'Save at least one contact before you continue.',
  finished: 'Setup is complete. Your PSA is connected and its data is in Switchboard.',
  /** Step 6: the PSA's company types did not load, so no client type can be chosen yet (the reason follows). */
  companyTypesNotLoaded: 'The company types could not be loaded from your PSA, so setup cannot finish yet.',
} as const;

/** a step can be opened when it is step 1, the current step, or the step before it is completed. */
export function canOpenWizardStep(progress: Pick<TWizardProgress, 'currentStep' | 'completedSteps'>, step: number): boolean {
  return step === 1 || step === progress.currentStep || progress.completedSteps.includes(step - 1);
}

/** at least one type, no type with only new subtypes, and at least one type with a saved subtype. */
export function isBoardReadyForWizard(board: Pick<TEditableBoard, 'mspConnectWiseBoardTypes'>): boolean {
  const types = board.mspConnectWiseBoardTypes;
  if (types.length === 0) return false;
  const hasOnlyNew = types.some((type) => type.mspConnectWiseBoardSubTypes.length > 0 && type.mspConnectWiseBoardSubTypes.every((subType) => subType.isNew));
  const hasSaved = types.some((type) => type.mspConnectWiseBoardSubTypes.some((subType) => !subType.isNew));
  return !hasOnlyNew && hasSaved;
}

/** The MSP integrations screen's own words (the spec names the inputs, 01 §3, not their messages). */
export const INTEGRATION_FORM_MESSAGES = {
  required: (label: string) => `Enter the ${label}.`,
  connected: 'Connected. Your PSA answered and its boards are available.',
  disconnected: 'Disconnected. The keys were cleared and the setup wizard starts again at step 1. What was loaded from the PSA is cleared when another PSA is connected; connecting this one again keeps it.',
  disconnectConfirm: 'Disconnect the PSA? The saved keys are cleared, the integration is switched off and the setup wizard goes back to step 1. Tickets, technicians’ links, companies and contacts loaded from this PSA stay until another PSA is connected.',
  /** The PSA refused the keys just typed into the connect form: what to do there (not "under Integrations": the admin is there). */
  badKeysHere: 'Check the keys above, correct them and press Connect again.',
  /** Saved keys the PSA stopped accepting, seen in a wizard step below the PSA connection card. */
  badKeysInWizard: 'Press Disconnect under PSA connection above, then connect again with the right keys.',
} as const;
