import { Suspense, useEffect, useState } from 'react';
import { AppShell, Burger, Button, Collapse, Group, Image, Loader, NavLink, ScrollArea, Tabs, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { TAdminOption, TSessionMspUser } from '@switchboard/contracts';
import { useMspProfile } from '../../../app/brand/msp-profile-queries';
import { setMainLoading } from '../../../lib/loading-store';
import { leaveAfterConfirming } from '../../../lib/use-unsaved-changes-guard';
import type { TTopLevelTab } from '../../../lib/local-storage';
import { ADMIN_OPTION_LABELS, chooseAdminOption, visibleAdminOptions } from '../../admin/admin-options';
import { AdminArea } from '../../admin/components/admin-area';
import { ProfileModal } from '../../profile/components/profile-modal';
import { canOpenBoardSync, homePathFor } from '../../session/session-guards';
import { useTechnicianInformation } from '../../session/api/technician-information';
import { useJarvisLayout, useJarvisOverlay } from '../../assistant/components/jarvis-layout';
import { useTicketFlow } from '../../assistant/state/use-ticket-flow';
import { useAssistantUiStore } from '../../assistant/state/assistant-ui-store';
import { useDashboardUiStore } from '../state/dashboard-ui-store';
import { technicianScreenForPath } from '../state/restore-ui-state';
import { MspUserOverview } from './user-overview';
import { QueueSetupNotice, canRunSetupWizard } from './setup-pointer';
import { UserMenu } from './user-menu';
import { ScreenErrorBoundary, ScreenLoading, lazyScreen } from './lazy-screen';

const QueuePage = lazyScreen(() => import('../../queue/pages/queue-page').then((module) => module.QueuePage));

const TAB_LABELS: Record<TTopLevelTab, string> = { iTAgent: 'iTAgent', admin: 'Admin' };

const AgentsPage = lazyScreen(() => import('../../assistant/pages/agents-page').then((module) => module.AgentsPage));
// Jarvis's chat and the client ticket area bring the markdown renderer: they load after the shell.
const JarvisAside = lazyScreen(() => import('../../assistant/components/jarvis-aside').then((module) => module.JarvisAside));
const ClientTicketArea = lazyScreen(() => import('../../client-tickets/pages/client-ticket-area').then((module) => module.ClientTicketArea));
const DocumentsPage = lazyScreen(() => import('../../knowledge/pages/documents-page').then((module) => module.DocumentsPage));
const BoardSyncScreen = lazyScreen(() => import('../../imports/components/board-sync-screen').then((module) => module.BoardSyncScreen));

/**
 * Admin screens with a route of their own (R-206: the sync screen at `/{msp}/admin/board/sync`), shown inside the shell
 * under the admin option they belong to; choosing anything else in the shell goes back to the dashboard's path.
 */
export type TRouteScreen = 'board-sync';
const ROUTE_SCREEN_OPTION: Record<TRouteScreen, TAdminOption> = { 'board-sync': 'board' };

/** The iTAgent tab's navigation options (02 §2: tickets, copilots; documents for R-239), by who may use them. */
type TItAgentOption = 'tickets' | 'copilots' | 'documents';
const IT_AGENT_LABELS: Record<TItAgentOption, string> = { tickets: 'Tickets', copilots: 'Agents', documents: 'Documents' };
function itAgentOptionsOf(user: TSessionMspUser): TItAgentOption[] {
  const options: TItAgentOption[] = ['tickets'];
  if (user.userKind === 'technician') options.push('copilots');
  if (user.permissions.mspDocuments || user.permissions.clientDocuments) options.push('documents');
  return options;
}

/** The MSP user's dashboard: header with tabs and user menu, the nav panel, and the active tab's content (or a routed admin screen). */
export function MspDashboardShell({ user, routeScreen }: { user: TSessionMspUser; routeScreen?: TRouteScreen }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { ui, openPanels, initialise, setUiState, setActiveTab, togglePanel } = useDashboardUiStore();
  const [isProfileOpen, setProfileOpen] = useState(false);
  const mspProfile = useMspProfile(user.mspCustomDomain);
  const adminOptions = visibleAdminOptions(user.permissions);
  const hasAdminTab = adminOptions.length > 0;
  useTechnicianInformation(user);
  const jarvis = useJarvisLayout(user.userKind === 'client');
  const isJarvisCovering = jarvis.isMobile && jarvis.isOpen;
  const { toggleRef: jarvisToggleRef, asideRef: jarvisAsideRef, handleKeyDown: handleJarvisKeyDown } = useJarvisOverlay(isJarvisCovering, jarvis.setOpen);
  const isPhone = useMediaQuery('(max-width: 48em)') === true;
  const ticketFlow = useTicketFlow(user);
  const openAgentChat = useAssistantUiStore((state) => state.openAgentChat);
  const itAgentOptions = itAgentOptionsOf(user);
  const isTechnician = user.userKind === 'technician';
  // A technician's choice among Overview and their iTAgent options; any other stored option (R-032's default,
  // employees) means they have made none here, and the address says which screen they came for.
  const hasTechnicianChoice = ui.navOption === 'overview' || itAgentOptions.some((option) => option === ui.navOption);
  const navOption = isTechnician && !hasTechnicianChoice ? technicianScreenForPath(pathname) : ui.navOption;
  const itAgentOption: TItAgentOption = itAgentOptions.find((option) => option === navOption) ?? 'tickets';

  useEffect(() => {
    initialise(pathname, window.innerWidth);
    // The sign-in screens set the main loading flag on their way here (01 §2); the dashboard is now up.
    setMainLoading(false);
  }, [initialise, pathname]);

  /** From a routed screen, whatever the person chooses is shown on the dashboard's own path (the choice is saved first). */
  function leaveRouteScreen() {
    if (routeScreen) void navigate(homePathFor(user));
  }

  function handleChooseOption(option: TAdminOption) {
    // On a routed screen its option is highlighted but not open: choosing it opens it.
    const next = chooseAdminOption(routeScreen ? { ...ui, currentOption: null } : ui, option, user.permissions);
    if (next === null) return;
    // On a phone the navigation covers the page; choosing a screen shows it (as the iTAgent options do). It closes
    // first, so a screen that asks before it is left (unsaved edits) is in view behind its question.
    if (isPhone && openPanels.nav) togglePanel('nav');
    // Switching screens is no route change: a screen with unsaved edits asks first (lib/use-unsaved-changes-guard).
    leaveAfterConfirming(() => {
      setUiState(next);
      leaveRouteScreen();
    });
  }

  const activeTab: TTopLevelTab = (routeScreen || ui.activeTab === 'admin') && hasAdminTab ? 'admin' : 'iTAgent';
  const currentAdminOption = routeScreen ? ROUTE_SCREEN_OPTION[routeScreen] : ui.currentOption;
  // Issue #10: technicians work the queue under the "tickets" navigation option, kept in the saved UI state.
  const isTicketsOpen = isTechnician && navOption === 'tickets';
  // A technician's "tickets" option is the queue; their overview is every other choice that is not a screen of its own.
  const isOverviewOpen = isTechnician && !isTicketsOpen && itAgentOption === 'tickets';
  // The screen the main area shows: choosing another one clears a failed screen's error (ScreenErrorBoundary).
  const screenKey = activeTab === 'admin' ? `admin:${routeScreen ?? currentAdminOption ?? ''}` : `iTAgent:${isTicketsOpen ? 'queue' : itAgentOption}`;

  function handleOpenTickets() {
    if (isPhone && openPanels.nav) togglePanel('nav');
    leaveAfterConfirming(() => {
      setUiState({ ...ui, activeTab: 'iTAgent', navOption: 'tickets' });
      leaveRouteScreen();
    });
  }

  function handleOpenOverview() {
    if (isPhone && openPanels.nav) togglePanel('nav');
    leaveAfterConfirming(() => {
      setUiState({ ...ui, activeTab: 'iTAgent', navOption: 'overview' });
      leaveRouteScreen();
    });
  }

  function handleChooseItAgentOption(option: TItAgentOption) {
    // On a phone the navigation covers the page; choosing a screen shows it.
    if (isPhone && openPanels.nav) togglePanel('nav');
    leaveAfterConfirming(() => {
      setUiState({ ...ui, activeTab: 'iTAgent', navOption: option });
      leaveRouteScreen();
    });
  }

  function handleTabChange(value: string | null) {
    if (value !== 'admin' && value !== 'iTAgent') return;
    const change = () => {
      setActiveTab(value);
      leaveRouteScreen();
    };
    // Mantine calls this for the tab already shown too: only the other tab leaves the screen.
    if (value === activeTab) change();
    else leaveAfterConfirming(change);
  }

  // The sync screen is for technicians with mspIntegrations (its API's rule); anyone else reaching its path goes home.
  if (routeScreen === 'board-sync' && !canOpenBoardSync(user)) return <Navigate to={homePathFor(user)} replace />;

  // One Tabs context spans the header's tab list and the main area's panels, so each tab controls a real panel.
  return (
    <Tabs value={activeTab} onChange={handleTabChange} variant="pills" keepMounted={false}>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !openPanels.nav, desktop: !openPanels.nav } }}
        aside={jarvis.aside}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            {/* At phone width the tabs and the menu keep the header; the MSP name heads the navigation panel instead. */}
            <Group wrap="nowrap" gap="sm" style={{ minWidth: 0, flex: 1 }}>
              <Burger opened={openPanels.nav} onClick={() => togglePanel('nav')} size="sm" aria-label={openPanels.nav ? 'Close navigation panel' : 'Open navigation panel'} />
              {mspProfile.data?.logoUrl ? (
                // A wide logo shrinks into the room left beside the tabs on a phone instead of running under them.
                <Image src={mspProfile.data.logoUrl} alt={`${user.mspName} logo`} h={32} w="auto" maw={{ base: '100%', sm: 200 }} fit="contain" style={{ minWidth: 0, flexShrink: 1 }} />
              ) : null}
              <Text fw={700} component="span" truncate="end" title={user.mspName} visibleFrom="sm">
                {user.mspName}
              </Text>
            </Group>
            <Tabs.List aria-label="Top-level tabs" style={{ flexWrap: 'nowrap', flexShrink: 0 }}>
              <Tabs.Tab value="iTAgent">{TAB_LABELS.iTAgent}</Tabs.Tab>
              {hasAdminTab && <Tabs.Tab value="admin">{TAB_LABELS.admin}</Tabs.Tab>}
            </Tabs.List>
            <Group gap="xs" wrap="nowrap">
              <Button ref={jarvisToggleRef} size="compact-sm" variant={jarvis.isOpen ? 'filled' : 'light'} aria-expanded={jarvis.isOpen} aria-controls="jarvis-panel" onClick={() => jarvis.setOpen(!jarvis.isOpen)}>
                Jarvis
              </Button>
              <UserMenu user={user} onOpenProfile={() => setProfileOpen(true)} />
            </Group>
          </Group>
        </AppShell.Header>

        {/* A closed panel slides away but would stay focusable; inert takes it out of the tab order. */}
        <AppShell.Navbar p="sm" aria-label="Navigation panel" inert={!openPanels.nav}>
          <ScrollArea>
            <Text fw={700} hiddenFrom="sm" px="sm" pb="xs">
              {user.mspName}
            </Text>
            {isTechnician && (
              <>
                <NavLink label="Overview" active={activeTab === 'iTAgent' && isOverviewOpen} aria-current={activeTab === 'iTAgent' && isOverviewOpen ? 'page' : undefined} onClick={handleOpenOverview} component="button" />
                <NavLink
                  label="Tickets"
                  active={activeTab === 'iTAgent' && isTicketsOpen}
                  aria-current={activeTab === 'iTAgent' && isTicketsOpen ? 'page' : undefined}
                  onClick={handleOpenTickets}
                  component="button"
                />
              </>
            )}
            {itAgentOptions
              .filter((option) => !(isTechnician && option === 'tickets'))
              .map((option) => (
                <NavLink
                  key={option}
                  component="button"
                  label={IT_AGENT_LABELS[option]}
                  active={activeTab === 'iTAgent' && !isTicketsOpen && itAgentOption === option}
                  aria-current={activeTab === 'iTAgent' && !isTicketsOpen && itAgentOption === option ? 'page' : undefined}
                  onClick={() => handleChooseItAgentOption(option)}
                />
              ))}
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
                      active={activeTab === 'admin' && currentAdminOption === option}
                      aria-current={activeTab === 'admin' && currentAdminOption === option ? (routeScreen ? 'location' : 'page') : undefined}
                      onClick={() => handleChooseOption(option)}
                    />
                  ))}
                </Collapse>
              </>
            )}
          </ScrollArea>
        </AppShell.Navbar>

        <AppShell.Main inert={isJarvisCovering}>
          <Tabs.Panel value="iTAgent">
            <ScreenErrorBoundary resetKey={screenKey} title="This screen could not be shown">
              {isTicketsOpen && canRunSetupWizard(user) && <QueueSetupNotice mspCustomDomain={user.mspCustomDomain} onOpenSetup={() => handleChooseOption('msp-integrations')} />}
              <Suspense fallback={<ScreenLoading title={isTicketsOpen ? 'Tickets' : IT_AGENT_LABELS[itAgentOption]} />}>
                {isTicketsOpen && <QueuePage user={user} />}
                {!isTicketsOpen && itAgentOption === 'copilots' && <AgentsPage mspCustomDomain={user.mspCustomDomain} onOpenAgent={(agent) => openAgentChat(agent.id)} />}
                {!isTicketsOpen && itAgentOption === 'documents' && <DocumentsPage mspCustomDomain={user.mspCustomDomain} canChooseAudience={isTechnician && user.permissions.mspDocuments} canUpload={!isTechnician || user.permissions.mspDocuments} isForClient={!isTechnician} />}
                {!isTicketsOpen &&
                  itAgentOption === 'tickets' &&
                  (user.userKind === 'client' ? (
                    <ClientTicketArea user={user} flow={ticketFlow} showDraft={!jarvis.isMobile} onOpenAssistant={() => jarvis.setOpen(true)} />
                  ) : (
                    <MspUserOverview user={user} onChooseOption={handleChooseOption} onOpenProfile={() => setProfileOpen(true)} onOpenQueue={handleOpenTickets} />
                  ))}
              </Suspense>
            </ScreenErrorBoundary>
          </Tabs.Panel>
          {hasAdminTab && (
            <Tabs.Panel value="admin">
              <ScreenErrorBoundary resetKey={screenKey} title="This screen could not be shown">
                {routeScreen === 'board-sync' ? (
                  <Suspense fallback={<ScreenLoading title="Sync boards and tickets" />}>
                    <BoardSyncScreen mspCustomDomain={user.mspCustomDomain} />
                  </Suspense>
                ) : (
                  <AdminArea user={user} currentOption={ui.currentOption} onChooseOption={handleChooseOption} />
                )}
              </ScreenErrorBoundary>
            </Tabs.Panel>
          )}
        </AppShell.Main>
        <AppShell.Aside ref={jarvisAsideRef} id="jarvis-panel" aria-label="Jarvis assistant" inert={!jarvis.isOpen} onKeyDown={handleJarvisKeyDown}>
          {/* Closing and opening Jarvis again is a new try, as choosing another screen is for the main area. */}
          <ScreenErrorBoundary resetKey={String(jarvis.isOpen)} title="Jarvis could not be shown">
            <Suspense fallback={<Loader m="md" aria-label="Loading Jarvis" />}>
              <JarvisAside user={user} flow={ticketFlow} isMobile={jarvis.isMobile} psaType={ticketFlow.catalogue.psaType} />
            </Suspense>
          </ScreenErrorBoundary>
        </AppShell.Aside>
        <ProfileModal user={user} opened={isProfileOpen} onClose={() => setProfileOpen(false)} />
      </AppShell>
    </Tabs>
  );
}
