import { canOpenWizardStep, WIZARD_MESSAGES, WIZARD_STEP_COUNT, type TWizardCompleteBody, type TWizardProgress } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { conflict, validation } from '../../lib/app-error';
import { findIntegration, findPsaTypeOfMsp } from '../integrations/integrations.repository';
import { isIntegrationConfigured } from '../integrations/integrations.presenter';
import { presentWizardProgress } from './wizard.presenter';
import { countImportedTechnicians, countSavedCompanies, countSavedContacts, countSavedSubtypesOfBoard, countTeamsOnBoard, findWizardProgress, saveWizardProgress } from './wizard.repository';

export interface TWizardActor {
  mspId: string;
  userId: string;
  ip: string;
  requestId: string;
}

/** The 6-step setup wizard's stored progress and its rules (01 §2, §4; ). */
export function createWizardService(deps: Pick<TAppDeps, 'database' | 'audit' | 'now'>) {
  const db = deps.database.db;

  /** Checks what the server can see of a step's completion rule; the rest is checked by the screen before it asks. */
  async function assertStepDone(mspId: string, body: TWizardCompleteBody, progress: TWizardProgress): Promise<void> {
    if (body.step === 1) {
      const integration = await findIntegration(db, mspId);
      if (!integration || !isIntegrationConfigured(integration) || !integration.connectWiseManageIntegrator) throw conflict(WIZARD_MESSAGES.notConnected);
      if (body.boardId === undefined) throw validation(WIZARD_MESSAGES.boardRequired, [{ name: 'boardId', reason: WIZARD_MESSAGES.boardRequired }]);
      // a board saved with at least one subtype; saved subtypes exist at the PSA, so none of them is new.
      if ((await countSavedSubtypesOfBoard(db, mspId, body.boardId)) === 0) throw conflict(WIZARD_MESSAGES.boardNotReady);
    }
    if (body.step === 2 && (await countImportedTechnicians(db, mspId)) === 0) throw conflict(WIZARD_MESSAGES.technicianRequired);
    // team members always carry a tier once stored, so the server checks that a team exists on the step-1 board.
    if (body.step === 3 && (progress.boardId === null || (await countTeamsOnBoard(db, mspId, progress.boardId)) === 0)) throw conflict(WIZARD_MESSAGES.teamRequired);
    // adding clients completes step 4 and adding contacts step 5, so at least one of each is saved from the current PSA.
    if (body.step === 4 || body.step === 5) {
      const psaType = await findPsaTypeOfMsp(db, mspId);
      if (psaType === null) throw conflict(WIZARD_MESSAGES.notConnected);
      if (body.step === 4 && (await countSavedCompanies(db, mspId, psaType)) === 0) throw conflict(WIZARD_MESSAGES.clientRequired);
      if (body.step === 5 && (await countSavedContacts(db, mspId, psaType)) === 0) throw conflict(WIZARD_MESSAGES.contactRequired);
    }
  }

  return {
    async getProgress(mspId: string): Promise<TWizardProgress> {
      return presentWizardProgress(await findWizardProgress(db, mspId));
    },

    /** opens a step the gating allows; it becomes the current step. */
    async openStep(actor: TWizardActor, step: number): Promise<TWizardProgress> {
      const progress = presentWizardProgress(await findWizardProgress(db, actor.mspId));
      if (!canOpenWizardStep(progress, step)) throw conflict(WIZARD_MESSAGES.stepLocked, { currentStep: progress.currentStep });
      if (step === progress.currentStep) return progress;
      const row = await saveWizardProgress(
        db,
        actor.mspId,
        { currentStep: step, completedSteps: progress.completedSteps, boardId: progress.boardId, boardName: progress.boardName, finishedAt: progress.finishedAt ? new Date(progress.finishedAt) : null },
        deps.now(),
      );
      return presentWizardProgress(row);
    },

    /** completes the current step when its rule holds and moves to the next; step 6 finishes the wizard. */
    async completeStep(actor: TWizardActor, body: TWizardCompleteBody): Promise<TWizardProgress> {
      const progress = presentWizardProgress(await findWizardProgress(db, actor.mspId));
      if (body.step !== progress.currentStep) throw conflict(WIZARD_MESSAGES.notCurrentStep, { currentStep: progress.currentStep });
      await assertStepDone(actor.mspId, body, progress);
      // Another board in step 1 undoes what steps 2–6 did for the old one (its teams, the finish): only step 1 stays complete.
      const isBoardChanged = body.step === 1 && progress.boardId !== null && body.boardId !== progress.boardId;
      const completedSteps = isBoardChanged ? [1] : [...new Set([...progress.completedSteps, body.step])].sort((a, b) => a - b);
      const isLast = body.step === WIZARD_STEP_COUNT;
      const now = deps.now();
      const row = await db.transaction(async (tx) => {
        const saved = await saveWizardProgress(
          tx,
          actor.mspId,
          {
            currentStep: isLast ? body.step : body.step + 1,
            completedSteps,
            boardId: body.step === 1 ? (body.boardId ?? null) : progress.boardId,
            boardName: body.step === 1 ? (body.boardName ?? null) : progress.boardName,
            finishedAt: isLast ? now : progress.finishedAt && !isBoardChanged ? new Date(progress.finishedAt) : null,
          },
          now,
        );
        await deps.audit.record(tx, {
          mspId: actor.mspId,
          actorKind: 'user',
          actorId: actor.userId,
          action: isLast ? 'wizard.finish' : 'wizard.step.complete',
          target: 'wizard',
          outcome: 'success',
          ip: actor.ip,
          requestId: actor.requestId,
          details: { step: body.step },
        });
        return saved;
      });
      return presentWizardProgress(row);
    },
  };
}
