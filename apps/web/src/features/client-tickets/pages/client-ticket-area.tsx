import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, NativeSelect, Pagination, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { PAGE_SIZE, TICKET_AREA_MODES } from '@switchboard/contracts';
import type { TClientTicketSort, TSessionMspUser, TSupportTicket, TTicketAreaMode } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { FlowDraftCard } from '../../assistant/components/ticket-draft-card';
import type { useTicketFlow } from '../../assistant/state/use-ticket-flow';
import { KnowledgeBase } from '../../knowledge/components/knowledge-base';
import { useAssistantUiStore } from '../../assistant/state/assistant-ui-store';
import { useTicketingConfiguration } from '../../boards/api/boards-queries';
import { TicketFilters } from '../../queue/components/ticket-filters';
import { allBoardChoices } from '../../queue/lib/board-choices';
import { ALL_FILTERS, type TTicketFilters } from '../../queue/queue-types';
import { useClientTickets } from '../api/support-tickets-queries';
import { SupportTicketCard } from '../components/support-ticket-card';
import { useDocumentTitle } from '../../../lib/use-document-title';

type TTicketFlow = ReturnType<typeof useTicketFlow>;
const isMode = (value: string): value is TTicketAreaMode => (TICKET_AREA_MODES as readonly string[]).includes(value);

/** The ticket opened last, by its date rather than its place in the list (review s26 #2); one without a date counts as oldest. */
function openedLast(tickets: readonly TSupportTicket[]): TSupportTicket | undefined {
  const timeOf = (ticket: TSupportTicket) => {
    const time = ticket.createdAt === null ? Number.NaN : Date.parse(ticket.createdAt);
    return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
  };
  return tickets.reduce<TSupportTicket | undefined>((newest, ticket) => (newest === undefined || timeOf(ticket) > timeOf(newest) ? ticket : newest), undefined);
}

const SORT_CHOICES: { value: TClientTicketSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'oldest', label: 'Oldest' },
];
const isSort = (value: string): value is TClientTicketSort => SORT_CHOICES.some((choice) => choice.value === value);

/** The technician's All Tickets filters for the client's own list: board, type, subtype, priority, words and the sort. */
function AllTicketsToolbar({ user, filters, sort, searchText, onFiltersChange, onSortChange, onSearchTextChange }: {
  user: TSessionMspUser;
  filters: TTicketFilters;
  sort: TClientTicketSort;
  searchText: string;
  onFiltersChange: (filters: TTicketFilters) => void;
  onSortChange: (sort: TClientTicketSort) => void;
  onSearchTextChange: (text: string) => void;
}) {
  const configuration = useTicketingConfiguration(user.mspCustomDomain);
  return (
    <Group gap="sm" wrap="wrap" align="flex-end">
      <TicketFilters boards={allBoardChoices(configuration.data)} filters={filters} onChange={onFiltersChange} />
      <NativeSelect aria-label="Sort" value={sort} onChange={(event) => isSort(event.currentTarget.value) && onSortChange(event.currentTarget.value)} data={SORT_CHOICES} />
      <TextInput aria-label="Search your tickets" placeholder="Search your tickets" value={searchText} onChange={(event) => onSearchTextChange(event.currentTarget.value)} style={{ flex: '1 1 160px', maxWidth: 240 }} />
    </Group>
  );
}

function AllTickets({ user }: { user: TSessionMspUser }) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<TTicketFilters>(ALL_FILTERS);
  const [sort, setSort] = useState<TClientTicketSort>('newest');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const tickets = useClientTickets(user.id, page, { filters, search, sort });
  const data = tickets.data;
  // a filter, the sort or a search shows its first page.
  const applySearch = useDebouncedCallback((value: string) => {
    setSearch(value.trim());
    setPage(1);
  }, 300);
  const isFiltered = search !== '' || Object.values(filters).some((value) => value !== 'all');
  const pageCount = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : null;
  // The total can shrink under the page on screen: go back to the last page there is, not an empty one (review s26 #4).
  // Set while rendering (React's pattern for state that follows other data), so the empty page is never shown.
  if (pageCount !== null && page > pageCount) setPage(pageCount);
  if (!data) {
    if (!tickets.isError) return <Loader aria-label="Loading your tickets" />;
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorDetail(tickets.error)}</Text>
          <Button size="compact-sm" variant="light" color="red" loading={tickets.isFetching} onClick={() => void tickets.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <AllTicketsToolbar
        user={user}
        filters={filters}
        sort={sort}
        searchText={searchText}
        onFiltersChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
        onSortChange={(next) => {
          setSort(next);
          setPage(1);
        }}
        onSearchTextChange={(text) => {
          setSearchText(text);
          applySearch(text);
        }}
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {data.total === 0 ? (isFiltered ? 'No tickets match.' : 'You have no tickets yet.') : `${data.total} ticket${data.total === 1 ? '' : 's'}`}
      </Text>
      {/* A failed refresh keeps what was read last on screen; the list keeps polling (review s26 #3). */}
      {tickets.isRefetchError && (
        <Text size="xs" c="red.8" role="status">
          Your tickets could not be refreshed just now, so this list may be out of date.
        </Text>
      )}
      {data.tickets.length > 0 && (
        <Stack gap="xs" component="ul" aria-label="Your tickets" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.tickets.map((ticket) => (
            <li key={ticket.id}>
              <SupportTicketCard ticket={ticket} />
            </li>
          ))}
        </Stack>
      )}
      {pageCount !== null && pageCount > 1 && <Pagination total={pageCount} value={page} onChange={setPage} aria-label="Ticket pages" />}
    </Stack>
  );
}

function MyTicket({ user, flow, showDraft, onOpenAssistant }: { user: TSessionMspUser; flow: TTicketFlow; showDraft: boolean; onOpenAssistant: () => void }) {
  const latest = useClientTickets(user.id, 1);
  if (flow.draft && flow.form && showDraft) return <FlowDraftCard user={user} flow={flow} />;
  if (flow.draft) return <Text c="dimmed">Your ticket is being prepared in the chat.</Text>;
  const newest = openedLast(latest.data?.tickets ?? []);
  return (
    <Stack gap="sm">
      <Paper withBorder p="md">
        <Text mb="xs">Something not working? Describe it to Jarvis: a few questions, a few things to try, and a ticket with everything your technician needs.</Text>
        <Button onClick={onOpenAssistant}>Describe a problem</Button>
      </Paper>
      {newest && (
        <>
          <Title order={3} size="h5">
            Your latest ticket
          </Title>
          <SupportTicketCard ticket={newest} isExpanded />
        </>
      )}
    </Stack>
  );
}

/**
 * The client's ticket area (02 §2): "My Ticket" (the ticket being created by chat, or the latest
 * one's progress), "All Tickets" (their own, R-290) and "Knowledge Base".
 */
/** Narrower than this, the ticket form is too cramped beside the chat and shows in the chat instead. */
const ROOMY_TICKET_AREA_PX = 520;

/**
 * The element's width once the browser has measured it, null before. Mantine's useElementSize starts at 0 and
 * a measured 0 looked the same, so an area squeezed to nothing read as "not measured yet" (review s25 #4).
 */
function useMeasuredWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

export function ClientTicketArea({ user, flow, showDraft, onOpenAssistant }: { user: TSessionMspUser; flow: TTicketFlow; showDraft: boolean; onOpenAssistant: () => void }) {
  useDocumentTitle('Tickets');
  const { ref, width } = useMeasuredWidth<HTMLDivElement>();
  const setTicketAreaRoomy = useAssistantUiStore((state) => state.setTicketAreaRoomy);
  // Before the first measurement nothing is decided; a measured 0 (no room left beside Jarvis) is not roomy.
  const isRoomy = width === null || width >= ROOMY_TICKET_AREA_PX;
  useEffect(() => {
    setTicketAreaRoomy(isRoomy);
  }, [isRoomy, setTicketAreaRoomy]);
  return (
    <Stack component="section" aria-labelledby="ticket-area-title" ref={ref}>
      <Title order={1} size="h2" id="ticket-area-title">
        Tickets
      </Title>
      <SegmentedControl
        aria-label="Ticket area mode"
        data={[...TICKET_AREA_MODES]}
        value={flow.mode}
        onChange={(value) => isMode(value) && flow.setMode(value)}
        orientation={width !== null && width < 400 ? 'vertical' : 'horizontal'}
        style={{ alignSelf: 'flex-start' }}
      />
      {flow.mode === 'My Ticket' && <MyTicket user={user} flow={flow} showDraft={showDraft && isRoomy} onOpenAssistant={onOpenAssistant} />}
      {flow.mode === 'All Tickets' && <AllTickets user={user} />}
      {flow.mode === 'Knowledge Base' && <KnowledgeBase mspCustomDomain={user.mspCustomDomain} />}
    </Stack>
  );
}
