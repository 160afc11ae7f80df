import { Alert, Anchor, List, Text } from '@mantine/core';
import type { TSessionMspUser } from '@switchboard/contracts';
import { visibleAdminOptions } from '../../admin/admin-options';
import { useWizardProgress } from '../../msp-integrations/api/msp-integrations-queries';

const FINISH_SETTING_UP = 'Finish setting up';
const QUEUE_EMPTY_UNTIL_SET_UP = 'Your ticket queue stays empty until a board is chosen and its tickets are synchronized.';

/** Whether this person may run the setup wizard: it lives on MSP integrations, whose calls need mspIntegrations (decision 017). */
export function canRunSetupWizard(user: TSessionMspUser): boolean {
  return visibleAdminOptions(user.permissions).includes('msp-integrations');
}

/**
 * Whether the MSP's setup wizard is unfinished, from its stored progress (decision 017). Only for someone who may run
 * it (render the pointers below behind `canRunSetupWizard`): its read is refused to everyone else. Unknown (loading,
 * or the read failed) counts as finished: a pointer is a hint, and a wrong one would send people to a finished wizard.
 */
function useIsSetupUnfinished(mspCustomDomain: string): boolean {
  return useWizardProgress(mspCustomDomain).data?.isFinished === false;
}

type TSetupPointerProps = { mspCustomDomain: string; onOpenSetup: () => void };

/** The Overview's first next step while setup is unfinished: the queue has nothing to give until then. */
export function SetupNextStep({ mspCustomDomain, onOpenSetup }: TSetupPointerProps) {
  if (!useIsSetupUnfinished(mspCustomDomain)) return null;
  return (
    <List.Item>
      <Anchor component="button" type="button" fw={600} ta="left" onClick={onOpenSetup} style={{ display: 'block' }}>
        {FINISH_SETTING_UP}
      </Anchor>
      <Text size="sm" c="dimmed">
        {QUEUE_EMPTY_UNTIL_SET_UP}
      </Text>
    </List.Item>
  );
}

/** Above the queue, where a technician now lands, the same pointer: why "Get next tickets" gives nothing yet. */
export function QueueSetupNotice({ mspCustomDomain, onOpenSetup }: TSetupPointerProps) {
  if (!useIsSetupUnfinished(mspCustomDomain)) return null;
  return (
    // Outline on the page's white, its title in the body colour: the brand-coloured link keeps the contrast it has elsewhere.
    <Alert color="blue" variant="outline" mb="md" title="Setup is not finished" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
      <Text size="sm">{QUEUE_EMPTY_UNTIL_SET_UP}</Text>
      <Anchor component="button" type="button" fw={600} size="sm" onClick={onOpenSetup}>
        {FINISH_SETTING_UP}
      </Anchor>
    </Alert>
  );
}
