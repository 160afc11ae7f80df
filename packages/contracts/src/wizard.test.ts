import { describe, expect, it } from 'vitest';
import { canOpenWizardStep, isBoardReadyForWizard } from './wizard';

const subType = (isNew: boolean) => ({ isNew }) as never;

describe('wizard step gating (R-183)', () => {
  it('opens step 1, the current step, and a step whose predecessor is completed, nothing else', () => {
    const progress = { currentStep: 3, completedSteps: [1, 2] };
    expect(canOpenWizardStep(progress, 1)).toBe(true);
    expect(canOpenWizardStep(progress, 2)).toBe(true);
    expect(canOpenWizardStep(progress, 3)).toBe(true);
    expect(canOpenWizardStep(progress, 4)).toBe(false);
    expect(canOpenWizardStep({ currentStep: 1, completedSteps: [] }, 2)).toBe(false);
  });
});

describe('step 1 completion rule (R-184)', () => {
  it('needs a type with a saved subtype and no type with only new subtypes', () => {
    expect(isBoardReadyForWizard({ mspConnectWiseBoardTypes: [] })).toBe(false);
    expect(isBoardReadyForWizard({ mspConnectWiseBoardTypes: [{ mspConnectWiseBoardSubTypes: [] }] as never })).toBe(false);
    expect(isBoardReadyForWizard({ mspConnectWiseBoardTypes: [{ mspConnectWiseBoardSubTypes: [subType(false)] }] as never })).toBe(true);
    expect(
      isBoardReadyForWizard({ mspConnectWiseBoardTypes: [{ mspConnectWiseBoardSubTypes: [subType(false)] }, { mspConnectWiseBoardSubTypes: [subType(true)] }] as never }),
    ).toBe(false);
  });
});
