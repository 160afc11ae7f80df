import type { TWizardProgress } from '@switchboard/contracts';
import type { TWizardProgressRow } from './wizard.repository';

export function presentWizardProgress(row: TWizardProgressRow | null): TWizardProgress {
  if (!row) return { currentStep: 1, completedSteps: [], boardId: null, boardName: null, isFinished: false, finishedAt: null };
  return {
    currentStep: row.currentStep,
    completedSteps: [...row.completedSteps].sort((a, b) => a - b),
    boardId: row.boardId,
    boardName: row.boardName,
    isFinished: row.finishedAt !== null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
