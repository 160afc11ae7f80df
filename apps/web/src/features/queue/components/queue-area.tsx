import { useRef, useState } from 'react';
import { Box, Button, FocusTrap, Group, SegmentedControl, Stack, TextInput, Title, getDefaultZIndex } from '@mantine/core';
import { useDebouncedCallback, useElementSize, useMediaQuery } from '@mantine/hooks';
import type { TSessionMspUser } from '@switchboard/contracts';
import { useTicketingConfiguration } from '../../boards/api/boards-queries';
import type { TAllTicketsFilter, TQueueActor } from '../api/queue-queries';
import { allBoardChoices } from '../lib/board-choices';
import { ALL_FILTERS, TICKET_MODE_LABELS } from '../queue-types';
import type { TTicketFilters, TTicketMode } from '../queue-types';
import { AllTicketsView } from './all-tickets-view';
import { DashboardsView } from './dashboards-view';
import { DispatchBoard } from './dispatch-board';
import { SlaAlerts } from './sla-alerts';
import { KnowledgeBase } from '../../knowledge/components/knowledge-base';
import { MyTicketView } from './my-ticket-view';
import { ShortcutsHelp } from './shortcuts-help';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** R-042 / decisions #13: the queue's mobile layout applies below 1600 px. */
export const QUEUE_MOBILE_QUERY = '(max-width: 1599.98px)';
/** The area's own widths (px) below which the ticket list becomes a switcher, the panels stack, the toolbar stacks. */
const AREA_MOBILE_WIDTH = 1100;
const AREA_NARROW_WIDTH = 720;
const AREA_PHONE_WIDTH = 576;

const MODES: TTicketMode[] = ['my', 'all', 'knowledge', 'dashboards'];
/** Decision 018: the dispatcher's board is for admins and people managers. */
const DISPATCHER_MODES: TTicketMode[] = [...MODES, 'dispatch'];
/**
 * Full screen covers the app shell (z-index 100) but stays under Mantine's modals (200), popovers and
 * notifications: at 300 every dialog opened from it (Complete, Requeue, Edit, the article reader) was behind it.
 */
const FULL_SCREEN_Z_INDEX = getDefaultZIndex('modal') - 1;

/**
 * The technician's ticket area (02 §2): modes My Ticket, All Tickets, Knowledge Base and
 * Dashboards; cards or rows; search; full-screen mode, which turns card view off.
 */
export function QueueArea({ user }: { user: TSessionMspUser }) {
  const actor: TQueueActor = { mspCustomDomain: user.mspCustomDomain, techId: user.id, psaMemberId: user.psaMemberId };
  useDocumentTitle('Tickets');
  // The layouts follow the width the area itself has: with Jarvis open a 1440 px window leaves it ~350 px,
  // and the window-wide queries alone squeezed the ticket into a one-letter column under the timer.
  // Until the area is measured (and in jsdom, where nothing is) the window's width decides.
  const { ref: areaRef, width: areaWidth } = useElementSize();
  const isMeasured = areaWidth > 0;
  const isWindowMobile = useMediaQuery(QUEUE_MOBILE_QUERY, true) === true;
  const isWindowNarrow = useMediaQuery('(max-width: 61.99em)', false) === true;
  const isWindowPhone = useMediaQuery('(max-width: 36em)', false) === true;
  const isMobile = isWindowMobile || (isMeasured && areaWidth < AREA_MOBILE_WIDTH);
  // Narrow: the active ticket's panels stack in one column; phone: the toolbar stacks too.
  const isNarrow = isMeasured ? areaWidth < AREA_NARROW_WIDTH : isWindowNarrow;
  const isPhone = isMeasured ? areaWidth < AREA_PHONE_WIDTH : isWindowPhone;
  const configuration = useTicketingConfiguration(user.mspCustomDomain);
  const [mode, setMode] = useState<TTicketMode>('my');
  const [isCardView, setCardView] = useState(true);
  const [isFullScreen, setFullScreen] = useState(false);
  const [filters, setFilters] = useState<TTicketFilters>(ALL_FILTERS);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  // All Tickets' sort and "Include completed" live here with its page and filters: kept in the list, they reset
  // when the technician left the mode while the page stayed, and page 3 of a shorter list came back empty.
  const [sort, setSort] = useState<TAllTicketsFilter['sort']>('newest');
  const [show, setShow] = useState<TAllTicketsFilter['show']>('open');
  const layerRef = useRef<HTMLDivElement>(null);
  const boards = allBoardChoices(configuration.data);
  // A phone shows cards only: the rows' table is wider than its screen (R-283's rows in full screen included).
  const view = isPhone || (isCardView && !isFullScreen) ? 'cards' : 'rows';
  const canSeeEveryone = user.permissions.technicianUserManagement === true || user.permissions.adminPortal === true;

  // a search resets the page and switches to All Tickets.
  const applySearch = useDebouncedCallback((value: string) => {
    setSearch(value.trim());
    setPage(1);
    if (value.trim() !== '') setMode('all');
  }, 300);

  function handleFiltersChange(next: TTicketFilters) {
    setFilters(next);
    setPage(1);
  }

  const content = (
    <Stack gap="md" ref={areaRef}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        {/* The screen's own heading (axe sweep s28: no signed-in screen had an h1), at the size it had. */}
        <Title order={1} size="h2">
          Tickets
        </Title>
        <Group gap="xs" wrap="wrap">
          <TextInput
            aria-label="Search tickets"
            placeholder="Search tickets"
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              applySearch(event.currentTarget.value);
            }}
            w={isPhone ? '100%' : 240}
          />
          {/* Only All Tickets lists cards or rows: on the other modes the toggle changed nothing (axe sweep s28). */}
          {!isPhone && mode === 'all' && (
            <SegmentedControl
              aria-label="Ticket view"
              value={view}
              disabled={isFullScreen}
              onChange={(value) => setCardView(value === 'cards')}
              data={[
                { value: 'cards', label: 'Cards' },
                { value: 'rows', label: 'Rows' },
              ]}
            />
          )}
          <Button variant="default" onClick={() => setFullScreen((value) => !value)} aria-pressed={isFullScreen} data-autofocus={isFullScreen || undefined}>
            {isFullScreen ? 'Exit full screen' : 'Full screen'}
          </Button>
          <ShortcutsHelp />
        </Group>
      </Group>
      <SlaAlerts mspCustomDomain={user.mspCustomDomain} />
      <SegmentedControl
        aria-label="Ticket area mode"
        value={mode}
        onChange={setMode}
        data={(canSeeEveryone ? DISPATCHER_MODES : MODES).map((value) => ({ value, label: TICKET_MODE_LABELS[value] }))}
        fullWidth={isPhone}
        orientation={isPhone ? 'vertical' : 'horizontal'}
        style={{ alignSelf: isPhone ? 'stretch' : 'flex-start' }}
      />
      {mode === 'my' && (
        <MyTicketView
          actor={actor}
          isMobile={isMobile}
          isNarrow={isNarrow}
          configuration={configuration.data}
          isConfigurationLoading={configuration.isPending}
          shortcutScope={layerRef}
        />
      )}
      {mode === 'all' && (
        <AllTicketsView
          actor={actor}
          boards={boards}
          view={view}
          filters={filters}
          search={search}
          page={page}
          sort={sort}
          show={show}
          onFiltersChange={handleFiltersChange}
          onPageChange={setPage}
          onSortChange={setSort}
          onShowChange={setShow}
        />
      )}
      {mode === 'knowledge' && <KnowledgeBase mspCustomDomain={user.mspCustomDomain} />}
      {mode === 'dashboards' && <DashboardsView msp={user.mspCustomDomain} techId={user.id} canSeeEveryone={canSeeEveryone} />}
      {mode === 'dispatch' && canSeeEveryone && <DispatchBoard mspCustomDomain={user.mspCustomDomain} />}
    </Stack>
  );

  // One tree in both states: toggling full screen used to remount the whole area, losing a half-written
  // note and the chosen ticket. Full screen traps the focus (the page behind it is covered) and Escape leaves it.
  return (
    <FocusTrap active={isFullScreen} innerRef={layerRef}>
      <Box
        role={isFullScreen ? 'dialog' : undefined}
        aria-modal={isFullScreen ? 'true' : undefined}
        aria-label={isFullScreen ? 'Tickets, full screen' : undefined}
        pos={isFullScreen ? 'fixed' : undefined}
        inset={isFullScreen ? 0 : undefined}
        bg={isFullScreen ? 'var(--mantine-color-body)' : undefined}
        p={isFullScreen ? 'md' : undefined}
        style={isFullScreen ? { zIndex: FULL_SCREEN_Z_INDEX, overflow: 'auto' } : undefined}
        onKeyDown={(event) => {
          // Only an Escape pressed in the area itself: React passes on key presses from dialogs portalled out of it
          // (Requeue, Edit), and closing one with Escape also left full screen.
          const isFromArea = event.target instanceof Node && event.currentTarget.contains(event.target);
          if (isFullScreen && event.key === 'Escape' && isFromArea) setFullScreen(false);
        }}
      >
        {content}
      </Box>
    </FocusTrap>
  );
}
