import { Suspense, lazy, useEffect, useState } from 'react';
import { AppShell, Burger, Collapse, Group, Image, Loader, NavLink, ScrollArea, Tabs, Text, UnstyledButton } from '@mantine/core';
import { useLocation } from 'react-router';
import type { TAdminOption, TSessionMspUser } from '@switchboard/contracts';
import { useMspProfile } from '../../../app/brand/msp-profile-queries';
import { setMainLoading } from '../../../lib/loading-store';
import type { TTopLevelTab } from '../../../lib/local-storage';
import { ADMIN_OPTION_LABELS, chooseAdminOption, visibleAdminOptions } from '../../admin/admin-options';
import { AdminArea } from '../../admin/components/admin-area';
import { ProfileModal } from '../../profile/components/profile-modal';
import { useTechnicianInformation } from '../../session/api/technician-information';
import { useDashboardUiStore } from '../state/dashboard-ui-store';
import { MspUserOverview } from './user-overview';
import { UserMenu } from './user-menu';

const QueuePage = lazy(() => import('../../queue/pages/queue-page').then((module) => ({ default: module.QueuePage })));

const TAB_LABELS: Record<TTopLevelTab, string> = { iTAgent: 'iTAgent', admin: 'Admin' };

/** The MSP user's dashboard: header with tabs and user menu, the nav panel, and the active tab's content. */
export function MspDashboardShell({ user }: { user: TSessionMspUser }) {
  const { pathname } = useLocation();
  const { ui, openPanels, initialise, setUiState, setActiveTab, togglePanel } = useDashboardUiStore();
  const [isProfileOpen, setProfileOpen] = useState(false);
  const mspProfile = useMspProfile(user.mspCustomDomain);
  const adminOptions = visibleAdminOptions(user.permissions);
  const hasAdminTab = adminOptions.length > 0;
  useTechnicianInformation(user);

  useEffect(() => {
    initialise(pathname, window.innerWidth);
    // The sign-in screens set the main loading flag on their way here (01 §2); the dashboard is now up.
    setMainLoading(false);
  }, [initialise, pathname]);

  function handleChooseOption(option: TAdminOption) {
    const next = chooseAdminOption(ui, option, user.permissions);
    if (next !== null) setUiState(next);
  }

  const activeTab: TTopLevelTab = ui.activeTab === 'admin' && hasAdminTab ? 'admin' : 'iTAgent';
  // Issue #10: technicians work the queue under the "tickets" navigation option, kept in the saved UI state.
  const isTechnician = user.userKind === 'technician';
  const isTicketsOpen = isTechnician && ui.navOption === 'tickets';

  function handleOpenTickets() {
    setUiState({ ...ui, activeTab: 'iTAgent', navOption: 'tickets' });
  }

  function handleOpenOverview() {
    setUiState({ ...ui, activeTab: 'iTAgent', navOption: 'overview' });
  }

  function handleTabChange(value: string | null) {
    if (value === 'admin' || value === 'iTAgent') setActiveTab(value);
  }

  // One Tabs context spans the header's tab list and the main area's panels, so each tab controls a real panel.
  return (
    <Tabs value={activeTab} onChange={handleTabChange} variant="pills" keepMounted={false}>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !openPanels.nav, desktop: !openPanels.nav } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            {/* At phone width the MSP name gives way (truncates) so the tabs and the menu keep their room. */}
            <Group wrap="nowrap" gap="sm" style={{ minWidth: 0, flex: 1 }}>
              <Burger opened={openPanels.nav} onClick={() => togglePanel('nav')} size="sm" aria-label={openPanels.nav ? 'Close navigation panel' : 'Open navigation panel'} />
              {mspProfile.data?.logoUrl ? (
                <Image src={mspProfile.data.logoUrl} alt={`${user.mspName} logo`} h={32} w="auto" fit="contain" />
              ) : null}
              <Text fw={700} component="span" truncate="end" title={user.mspName}>
                {user.mspName}
              </Text>
            </Group>
            <Tabs.List aria-label="Top-level tabs" style={{ flexWrap: 'nowrap', flexShrink: 0 }}>
              <Tabs.Tab value="iTAgent">{TAB_LABELS.iTAgent}</Tabs.Tab>
              {hasAdminTab && <Tabs.Tab value="admin">{TAB_LABELS.admin}</Tabs.Tab>}
            </Tabs.List>
            <UserMenu user={user} onOpenProfile={() => setProfileOpen(true)} />
          </Group>
        </AppShell.Header>

        {/* A closed panel slides away but would stay focusable; inert takes it out of the tab order. */}
        <AppShell.Navbar p="sm" aria-label="Navigation panel" inert={!openPanels.nav}>
          <ScrollArea>
            <NavLink label="Overview" active={activeTab === 'iTAgent' && !isTicketsOpen} onClick={handleOpenOverview} component="button" />
            {isTechnician && (
              <NavLink
                label="Tickets"
                active={activeTab === 'iTAgent' && isTicketsOpen}
                aria-current={activeTab === 'iTAgent' && isTicketsOpen ? 'page' : undefined}
                onClick={handleOpenTickets}
                component="button"
              />
            )}
            {hasAdminTab && (
              <>
                <UnstyledButton
                  onClick={() => togglePanel('admin')}
                  aria-expanded={openPanels.admin}
                  aria-controls="admin-panel"
                  mt="md"
                  px="sm"
                  py={4}
                  w="100%"
                >
                  <Text size="xs" tt="uppercase" fw={700} c="dimmed">
                    Admin <span aria-hidden="true">{openPanels.admin ? '▾' : '▸'}</span>
                  </Text>
                </UnstyledButton>
                <Collapse expanded={openPanels.admin} id="admin-panel">
                  {adminOptions.map((option) => (
                    <NavLink
                      key={option}
                      component="button"
                      label={ADMIN_OPTION_LABELS[option]}
                      active={activeTab === 'admin' && ui.currentOption === option}
                      aria-current={activeTab === 'admin' && ui.currentOption === option ? 'page' : undefined}
                      onClick={() => handleChooseOption(option)}
                    />
                  ))}
                </Collapse>
              </>
            )}
          </ScrollArea>
        </AppShell.Navbar>

        <AppShell.Main>
          <Tabs.Panel value="iTAgent">
            {isTicketsOpen ? (
              <Suspense fallback={<Loader aria-label="Loading tickets" />}>
                <QueuePage user={user} />
              </Suspense>
            ) : (
              <MspUserOverview user={user} onChooseOption={handleChooseOption} onOpenProfile={() => setProfileOpen(true)} />
            )}
          </Tabs.Panel>
          {hasAdminTab && (
            <Tabs.Panel value="admin">
              <AdminArea user={user} currentOption={ui.currentOption} onChooseOption={handleChooseOption} />
            </Tabs.Panel>
          )}
        </AppShell.Main>
        {isProfileOpen && <ProfileModal user={user} onClose={() => setProfileOpen(false)} />}
      </AppShell>
    </Tabs>
  );
}
