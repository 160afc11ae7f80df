import { Anchor, Badge, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PERMISSIONS } from '@switchboard/contracts';
import type { TAdminOption, TSessionAccount, TSessionMspUser, TTierLevel } from '@switchboard/contracts';
import { ADMIN_OPTION_LABELS, visibleAdminOptions } from '../../admin/admin-options';
import { PERMISSION_LABELS } from '../../roles/permission-labels';
import { QUEUE_TIER_LABELS } from '../../../lib/tier-labels';
import { SetupNextStep, canRunSetupWizard } from './setup-pointer';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** "MSP integrations" → "MSP integrations", "Activity log" → "activity log": acronyms keep their capitals. */
function lowerCaseLabel(label: string): string {
  return label.replace(/\b[A-Z][a-z]/g, (word) => word.toLowerCase());
}

/** Decisions #9: NoTier reads "No Dispatching"; the other tiers by their spec names (Tier1…). */
export function tierLabel(tier: TTierLevel | null): string {
  return tier === null ? 'None' : QUEUE_TIER_LABELS[tier];
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      {/* Long e-mail addresses break anywhere instead of overflowing a phone-width card. */}
      <Text component="dd" m={0} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}

type TMspUserOverviewProps = {
  user: TSessionMspUser;
  onChooseOption: (option: TAdminOption) => void;
  onOpenProfile: () => void;
  /** A technician's way to their queue (the Tickets option); the overview's first next step. */
  onOpenQueue?: () => void;
};

/**
 * A technician's Overview: who is signed in, with which role and rights, and what they can do now: finishing the setup
 * first while it is unfinished and they may run it, else their queue.
 */
export function MspUserOverview({ user, onChooseOption, onOpenProfile, onOpenQueue }: TMspUserOverviewProps) {
  const granted = PERMISSIONS.filter((permission) => user.permissions[permission]);
  const adminOptions = visibleAdminOptions(user.permissions);
  useDocumentTitle('Overview');
  return (
    <Stack component="section" aria-labelledby="overview-title">
      <Title order={1} size="h2" id="overview-title">
        Welcome, {user.firstName}
      </Title>
      {/* What to do now first: on a phone the account details would push it below the fold. */}
      <Card withBorder component="section" aria-labelledby="overview-next">
        <Title order={3} size="h4" id="overview-next" mb="sm">
          Next steps
        </Title>
        <List spacing="xs">
          {canRunSetupWizard(user) && <SetupNextStep mspCustomDomain={user.mspCustomDomain} onOpenSetup={() => onChooseOption('msp-integrations')} />}
          {onOpenQueue && user.userKind === 'technician' && (
            <List.Item>
              <Anchor component="button" type="button" fw={600} ta="left" onClick={onOpenQueue} style={{ display: 'block' }}>
                Open your ticket queue
              </Anchor>
              <Text size="sm" c="dimmed">
                {user.tierLevel === 'NoTier' ? 'Your tier is No Dispatching, so the queue gives you no tickets; All Tickets lists them.' : 'Get your next tickets there; the timer, notes and completion go with each one.'}
              </Text>
            </List.Item>
          )}
          {adminOptions.map((option) => (
            <List.Item key={option}>
              <Anchor component="button" type="button" fw={600} onClick={() => onChooseOption(option)}>
                Manage {lowerCaseLabel(ADMIN_OPTION_LABELS[option])}
              </Anchor>
            </List.Item>
          ))}
          <List.Item>
            {/* An anchor-styled button wraps on narrow screens (Mantine's Button label does not); as a block its first line, not its last, sits by the bullet. */}
            <Anchor component="button" type="button" fw={600} ta="left" onClick={onOpenProfile} style={{ display: 'block' }}>
              Check your name and phone number in your profile
            </Anchor>
          </List.Item>
        </List>
      </Card>
      {/* By the width the overview has, not the window's: with Jarvis open beside it a 1440 px window leaves it ~350 px. */}
      <SimpleGrid type="container" cols={{ base: 1, '720px': 2 }}>
        <Card withBorder component="section" aria-labelledby="overview-account">
          <Title order={3} size="h4" id="overview-account" mb="sm">
            Your account
          </Title>
          <SimpleGrid type="container" cols={{ base: 1, '420px': 2 }} component="dl" m={0}>
            <Detail label="Name" value={`${user.firstName} ${user.lastName}`} />
            <Detail label="Email" value={user.email} />
            <Detail label="MSP" value={user.mspName} />
            <Detail label="User type" value={user.userKind === 'technician' ? 'Technician' : 'Client'} />
            <Detail label="Role" value={user.roleName} />
            {user.userKind === 'technician' && <Detail label="Tier" value={tierLabel(user.tierLevel)} />}
            <Detail label="Phone" value={user.phoneNumber === '' ? 'Not set' : user.phoneNumber} />
          </SimpleGrid>
        </Card>
        <Card withBorder component="section" aria-labelledby="overview-permissions">
          <Title order={3} size="h4" id="overview-permissions" mb="sm">
            Permissions of your role
          </Title>
          {granted.length === 0 ? (
            <Text>Your role grants no permissions.</Text>
          ) : (
            <Group gap="xs">
              {granted.map((permission) => (
                <Badge key={permission} variant="light">
                  {PERMISSION_LABELS[permission]}
                </Badge>
              ))}
            </Group>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/** The general account's dashboard content: who is signed in. */
export function AccountOverview({ user }: { user: TSessionAccount }) {
  useDocumentTitle('Overview');
  return (
    <Stack component="section" aria-labelledby="overview-title">
      <Title order={1} size="h2" id="overview-title">
        Welcome, {user.firstName}
      </Title>
      <Card withBorder>
        <SimpleGrid cols={2} component="dl" m={0}>
          <Detail label="Name" value={`${user.firstName} ${user.lastName}`} />
          <Detail label="Email" value={user.email} />
          <Detail label="Account type" value={user.accountKind === 'public' ? 'Public user' : 'Business account'} />
          {user.companyName !== null && <Detail label="Company" value={user.companyName} />}
          <Detail label="Phone" value={user.phoneNumber === '' ? 'Not set' : user.phoneNumber} />
        </SimpleGrid>
      </Card>
    </Stack>
  );
}
