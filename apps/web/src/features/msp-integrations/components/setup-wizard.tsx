import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { Alert, Button, Group, Loader, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { MESSAGES, WIZARD_CONTACTS_STEP_HELP, WIZARD_MESSAGES, WIZARD_STEPS, canOpenWizardStep, type TWizardCompleteBody } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { ImportPanel } from '../../imports/components/import-panel';
import { psaErrorMessage } from '../psa-error-message';
import { useCompleteWizardStep, useOpenWizardStep, useWizardProgress } from '../api/msp-integrations-queries';
import { WizardBoardStep } from './wizard-board-step';
import { WizardFinishStep } from './wizard-finish-step';
import { WizardTeamsStep } from './wizard-teams-step';
import { WizardTechniciansStep } from './wizard-technicians-step';

/** Steps 4 and 5 explain refused keys as the other steps do: disconnect above, not "under Integrations" (the admin is there). */
const describeWizardError = (error: unknown) => psaErrorMessage(error, 'wizard');

/**
 * The step moves on as soon as rows are saved, taking the panel and its "{count} saved." with it: a toast keeps the count
 * in view, and how many contacts were not saved (their company was not imported in step 4).
 */
function announceSaved(kind: 'clients' | 'contacts', saved: number, notSaved: number) {
  const savedText = MESSAGES.imports.saved.replace('{count}', saved.toLocaleString());
  notifications.show({
    color: notSaved > 0 ? 'yellow' : 'green',
    title: kind === 'clients' ? MESSAGES.imports.savedClientsTitle : MESSAGES.imports.savedContactsTitle,
    message: notSaved > 0 ? `${savedText} ${MESSAGES.imports.notSavedNoCompany.replace('{count}', notSaved.toLocaleString())}` : savedText,
    // Long enough to read the longer message; never held open, or it would sit over step 6's Finish button.
    autoClose: notSaved > 0 ? 10_000 : undefined,
  });
}

/** The 6-step setup wizard (01 §2, §4); its progress is stored on the server (decision 017). */
export function SetupWizard({ mspCustomDomain, isConnected }: { mspCustomDomain: string; isConnected: boolean }) {
  const progress = useWizardProgress(mspCustomDomain);
  const openStep = useOpenWizardStep(mspCustomDomain);
  const completeStep = useCompleteWizardStep(mspCustomDomain);
  // On a phone six labelled steps do not fit one row (squeezed, their connectors shrank to stray dots): they stand one under another.
  const isNarrow = useMediaQuery('(max-width: 48em)') ?? false;

  if (progress.isPending) return <Loader aria-label="Loading the setup wizard" />;
  if (progress.isError) return <Alert color="red">{errorDetail(progress.error)}</Alert>;
  const current = progress.data;
  const complete = (body: TWizardCompleteBody) => completeStep.mutate(body);
  const board = current.boardId !== null ? { id: current.boardId, name: current.boardName ?? `Board ${current.boardId}` } : null;
  const stepProps = { mspCustomDomain, isCompleting: completeStep.isPending };
  const mutationError = completeStep.error ?? openStep.error;
  /** Opening a step starts afresh: an earlier refusal (of either call) no longer applies. */
  const handleOpenStep = (step: number) => {
    completeStep.reset();
    openStep.reset();
    openStep.mutate(step);
  };

  function body(step: number) {
    if (!isConnected && step === 1) return <Text c="dimmed">{WIZARD_MESSAGES.notConnected}</Text>;
    switch (step) {
      case 1:
        return <WizardBoardStep {...stepProps} initialBoardId={current.boardId} onComplete={complete} />;
      case 2:
        return <WizardTechniciansStep {...stepProps} onComplete={() => complete({ step: 2 })} />;
      case 3:
        return <WizardTeamsStep {...stepProps} board={board} onComplete={() => complete({ step: 3 })} />;
      case 4:
        return (
          <Stack gap="md">
            <Text size="sm">Load the PSA’s companies, choose your clients and save them.</Text>
            <ImportPanel mspCustomDomain={mspCustomDomain} kind="clients" onSaved={(saved, notSaved) => {
                if (saved === 0) return;
                announceSaved('clients', saved, notSaved);
                complete({ step: 4 });
              }} describeError={describeWizardError} />
          </Stack>
        );
      case 5:
        return (
          <Stack gap="md">
            <Text size="sm">{WIZARD_CONTACTS_STEP_HELP}</Text>
            <ImportPanel mspCustomDomain={mspCustomDomain} kind="contacts" onSaved={(saved, notSaved) => {
                if (saved === 0) return;
                announceSaved('contacts', saved, notSaved);
                complete({ step: 5 });
              }} describeError={describeWizardError} />
          </Stack>
        );
      default:
        return <WizardFinishStep {...stepProps} onComplete={() => complete({ step: 6 })} />;
    }
  }

  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="wizard-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={3} id="wizard-title">
            Setup wizard
          </Title>
          <Text size="sm" c="dimmed">
            Step {current.currentStep} of {WIZARD_STEPS.length}
          </Text>
        </Group>
        {current.isFinished && (
          <Alert color="green" role="status">
            {WIZARD_MESSAGES.finished}
          </Alert>
        )}
        {mutationError && (
          <Alert color="red" role="alert">
            {errorDetail(mutationError)}
          </Alert>
        )}
        <Stepper
          // A finished wizard shows all six steps completed.
          active={current.isFinished && current.currentStep === WIZARD_STEPS.length ? WIZARD_STEPS.length : current.currentStep - 1}
          onStepClick={(index) => handleOpenStep(index + 1)}
          orientation={isNarrow ? 'vertical' : 'horizontal'}
          size="sm"
          iconSize={isNarrow ? 28 : undefined}
          // Mantine's vertical steps stand 64 px apart; on a phone a short connector keeps all six and the step's content in view.
          styles={isNarrow ? { step: { minHeight: 'calc(var(--stepper-icon-size) + 16px)' } } : undefined}
          wrap={false}
        >
          {WIZARD_STEPS.map((step) => (
            <Stepper.Step
              key={step.step}
              label={step.title}
              allowStepSelect={canOpenWizardStep(current, step.step) && step.step !== current.currentStep}
              // a locked step is a disabled button, not only an unclickable one.
              disabled={!canOpenWizardStep(current, step.step)}
              color={current.completedSteps.includes(step.step) ? 'teal' : undefined}
            >
              {/* key: moving between steps resets the step's data. */}
              <Stack key={`step-${step.step}-${current.currentStep}`} mt="md">
                <Text fw={600}>
                  {isNarrow ? `Step ${step.step}, ${step.title}: ` : ''}
                  {step.description}
                </Text>
                {body(step.step)}
              </Stack>
            </Stepper.Step>
          ))}
        </Stepper>
        {current.isFinished && (
          <Group>
            <Button variant="default" onClick={() => handleOpenStep(1)}>
              Review step 1
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
