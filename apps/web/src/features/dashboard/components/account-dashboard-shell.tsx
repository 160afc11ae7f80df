import { AppShell, Group, Text } from '@mantine/core';
import type { TSessionAccount } from '@switchboard/contracts';
import { AccountOverview } from './user-overview';
import { UserMenu } from './user-menu';

/** `/dashboard/{id}` for general accounts (sign-up form, provider and public users). */
export function AccountDashboardShell({ user }: { user: TSessionAccount }) {
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Text fw={700} component="span">
            Switchboard
          </Text>
          <UserMenu user={user} onOpenProfile={null} />
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <AccountOverview user={user} />
      </AppShell.Main>
    </AppShell>
  );
}
