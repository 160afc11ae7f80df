import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Loader, Paper, Progress, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { MESSAGES, type TActivitiesResponse } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useActivities } from '../api/queue-queries';

/** Today (YYYY-MM-DD) in the MSP's time zone, whose midnight the server counts the day from. */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/**
 * The calendar day `days` after (or before, when negative) a YYYY-MM-DD day. Counted on the date alone, in UTC, so a
 * daylight-saving change in the MSP's time zone cannot make a step skip or repeat a day.
 */
function shiftDay(day: string, days: number): string {
  const shifted = new Date(`${day}T00:00:00.000Z`);
  shifted.setUTCDate(shifted.getUTCDate() + days);
  return shifted.toISOString().slice(0, 10);
}

/**
 * A YYYY-MM-DD day as people say it, "Sunday 29 November", with the year when it is not `currentYear` ("Wednesday
 * 31 December 2025"). Put together from parts, as en-GB adds a comma before a year.
 */
function dayLabel(day: string, currentYear: string | undefined): string {
  const parts = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).formatToParts(new Date(`${day}T00:00:00.000Z`));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? '';
  const year = day.slice(0, 4);
  return `${part('weekday')} ${part('day')} ${part('month')}${year === currentYear ? '' : ` ${year}`}`;
}

/** What the view shows where there is no figure, e.g. the SLA share of a day without a completion that had an SLA. */
const NO_FIGURE = '—';

/**
 * Completions that had an SLA to meet (of one technician, or everyone's when `techId` is undefined): the server's
 * slaMet is null for a ticket without one, which is neither met nor missed, so it stays out of the SLA share.
 */
function completionsWithSla(data: TActivitiesResponse, completed: number, techId?: string): number {
  const withoutSla = data.activities.filter((activity) => activity.completed && activity.slaMet === null && (techId === undefined || activity.techId === techId)).length;
  return Math.max(completed - withoutSla, 0);
}

/**
 * Time of timers that ran past midnight or over 12 hours and are not confirmed yet (decision 043), in whole minutes as
 * shown, said beside the minutes worked: it is not counted as work until confirmed. Empty when none waits.
 */
function awaitingConfirmation(minutes: number): string | null {
  const rounded = Math.round(minutes);
  return rounded > 0 ? `${rounded} min awaiting confirmation` : null;
}

/** Below this width of the view (px) the day's tables become stacked label/value lists: they needed 420–480 px. */
const STACKED_BELOW_PX = 520;

/** One figure of a stacked list: its label and value on a line, with its bar under them. */
function StackedFigure({ label, value, note, bar }: { label: string; value: string; note?: string | null; bar?: { value: number; color: string } }) {
  return (
    <div>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Text size="sm" fw={500}>
          {value}
        </Text>
      </Group>
      {note && (
        <Text size="xs" c="dimmed" ta="right">
          {note}
        </Text>
      )}
      {bar && <Progress value={bar.value} color={bar.color} aria-hidden="true" size="sm" />}
    </div>
  );
}

/** The dimmed line under a figure of minutes worked, when some of that day's time awaits confirmation. */
function AwaitingConfirmation({ minutes }: { minutes: number }) {
  const text = awaitingConfirmation(minutes);
  return text === null ? null : (
    <Text size="xs" c="dimmed">
      {text}
    </Text>
  );
}

function Totals({ data, isStacked }: { data: TActivitiesResponse; isStacked: boolean }) {
  // Bars are relative to the day's busiest technician.
  // Whole minutes, as shown: 20 seconds of work is "0" with an empty bar, not a full one.
  const maxMinutes = Math.max(...data.totals.map((row) => Math.round(row.totalWorkMinutes)), 0) || 1;
  const maxCompleted = Math.max(...data.totals.map((row) => row.ticketsCompleted), 0) || 1;
  if (data.totals.length === 0) return null;
  if (isStacked) {
    return (
      <Stack gap="xs" component="ul" aria-label="Activity per technician" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data.totals.map((row) => {
          const withSla = completionsWithSla(data, row.ticketsCompleted, row.techId);
          return (
            <Paper key={row.techId} component="li" withBorder p="sm" aria-label={row.technicianName}>
              <Stack gap={6}>
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {row.technicianName}
                </Text>
                <StackedFigure label="Minutes worked" value={String(Math.round(row.totalWorkMinutes))} note={awaitingConfirmation(row.unconfirmedMinutes)} bar={{ value: (Math.round(row.totalWorkMinutes) / maxMinutes) * 100, color: 'blue' }} />
                <StackedFigure label="Tickets completed" value={String(row.ticketsCompleted)} bar={{ value: (row.ticketsCompleted / maxCompleted) * 100, color: 'green' }} />
                <StackedFigure label="SLA met" value={withSla === 0 ? NO_FIGURE : `${row.slaMet} of ${withSla}`} bar={{ value: withSla === 0 ? 0 : (row.slaMet / withSla) * 100, color: 'teal' }} />
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={420}>
    <Table aria-label="Activity per technician" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Technician</Table.Th>
          <Table.Th>Minutes worked</Table.Th>
          <Table.Th>Tickets completed</Table.Th>
          <Table.Th>SLA met</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.totals.map((row) => {
          const withSla = completionsWithSla(data, row.ticketsCompleted, row.techId);
          return (
            <Table.Tr key={row.techId}>
              <Table.Th scope="row" fw={500}>
                {row.technicianName}
              </Table.Th>
              <Table.Td miw={140}>
                <Text size="sm">{Math.round(row.totalWorkMinutes)}</Text>
                <AwaitingConfirmation minutes={row.unconfirmedMinutes} />
                {/* Blue, not the brand's red: a long day is not an error. */}
                <Progress value={(Math.round(row.totalWorkMinutes) / maxMinutes) * 100} color="blue" aria-hidden="true" size="sm" />
              </Table.Td>
              <Table.Td miw={140}>
                <Text size="sm">{row.ticketsCompleted}</Text>
                <Progress value={(row.ticketsCompleted / maxCompleted) * 100} color="green" aria-hidden="true" size="sm" />
              </Table.Td>
              <Table.Td miw={120}>
                <Text size="sm">{withSla === 0 ? NO_FIGURE : `${row.slaMet} of ${withSla}`}</Text>
                {/* The share of the day's completions with an SLA that met it (empty when none had one). */}
                <Progress value={withSla === 0 ? 0 : (row.slaMet / withSla) * 100} color="teal" aria-hidden="true" size="sm" />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
    </Table.ScrollContainer>
  );
}

function Summary({ data }: { data: TActivitiesResponse }) {
  const minutes = data.totals.reduce((sum, row) => sum + row.totalWorkMinutes, 0);
  const unconfirmed = data.totals.reduce((sum, row) => sum + row.unconfirmedMinutes, 0);
  const completed = data.totals.reduce((sum, row) => sum + row.ticketsCompleted, 0);
  const slaMet = data.totals.reduce((sum, row) => sum + row.slaMet, 0);
  const withSla = completionsWithSla(data, completed);
  const items = [
    { label: 'Minutes worked', value: String(Math.round(minutes)), unconfirmed },
    { label: 'Tickets completed', value: String(completed), unconfirmed: 0 },
    { label: 'SLA met', value: withSla === 0 ? NO_FIGURE : `${Math.round((slaMet / withSla) * 100)} %`, unconfirmed: 0 },
  ];
  return (
    // Three tiles side by side only when the section itself is wide enough: beside an open Jarvis (~340 px) the
    // window-width breakpoint squeezed "Tickets completed" out of a 90 px tile.
    <SimpleGrid type="container" cols={{ base: 1, '420px': 3 }}>
      {items.map((item) => (
        <Paper key={item.label} withBorder p="md" role="group" aria-label={item.label}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {item.label}
          </Text>
          <Text fz={28} fw={700}>
            {item.value}
          </Text>
          <AwaitingConfirmation minutes={item.unconfirmed} />
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** The tickets worked that day, one row per ticket and technician. */
function activityState(activity: TActivitiesResponse['activities'][number]): string {
  return activity.completed ? (activity.slaMet === false ? 'Completed, SLA missed' : 'Completed') : 'In progress';
}

function Worked({ data, showTechnician, isStacked }: { data: TActivitiesResponse; showTechnician: boolean; isStacked: boolean }) {
  if (data.activities.length === 0) return null;
  if (isStacked) {
    return (
      <Stack gap={6} component="ul" aria-label="Tickets worked" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data.activities.map((activity) => {
          const name = `#${activity.ticketId} ${activity.title}`;
          return (
            <li key={`${activity.queueTicketId}-${activity.techId}`} aria-label={name}>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Text>
              <Text size="xs" c="dimmed">
                {[showTechnician ? activity.technicianName : null, `${Math.round(activity.totalWorkMinutes)} min`, awaitingConfirmation(activity.unconfirmedMinutes), activityState(activity)].filter((part) => part !== null).join(' · ')}
              </Text>
            </li>
          );
        })}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table aria-label="Tickets worked" verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Ticket</Table.Th>
            {showTechnician && <Table.Th>Technician</Table.Th>}
            <Table.Th>Minutes</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.activities.map((activity) => (
            <Table.Tr key={`${activity.queueTicketId}-${activity.techId}`}>
              <Table.Td>
                #{activity.ticketId} {activity.title}
              </Table.Td>
              {showTechnician && <Table.Td>{activity.technicianName}</Table.Td>}
              <Table.Td>
                {Math.round(activity.totalWorkMinutes)}
                <AwaitingConfirmation minutes={activity.unconfirmedMinutes} />
              </Table.Td>
              <Table.Td>{activityState(activity)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * A day without work says so, and offers the latest earlier day with work in the block's scope, which the server names
 * (previousDayWithWork): a weekend or a Monday morning otherwise opened on nothing.
 */
function EmptyDay({ data, currentYear, onShowDay }: { data: TActivitiesResponse; currentYear: string | undefined; onShowDay: (day: string) => void }) {
  const previous = data.previousDayWithWork;
  return (
    <Group gap="sm">
      <Text c="dimmed">{MESSAGES.queue.dashboards.noWorkOn(dayLabel(data.date, currentYear))}</Text>
      {previous !== undefined && (
        <Button variant="light" size="compact-sm" onClick={() => onShowDay(previous)}>
          {MESSAGES.queue.dashboards.showDay(dayLabel(previous, currentYear))}
        </Button>
      )}
    </Group>
  );
}

function ActivityBlock({ title, query, showTechnician, isStacked, currentYear, onShowDay }: { title: string; query: ReturnType<typeof useActivities>; showTechnician: boolean; isStacked: boolean; currentYear: string | undefined; onShowDay: (day: string) => void }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        {query.isPending ? (
          <Loader aria-label={`Loading ${title.toLowerCase()}`} />
        ) : query.isError ? (
          <Alert color="red">{errorDetail(query.error)}</Alert>
        ) : (
          <>
            {/* An empty day says so in place of three tiles of 0 / 0 / —: on a phone they pushed the message and its button out of view. */}
            {query.data.totals.length === 0 ? <EmptyDay data={query.data} currentYear={currentYear} onShowDay={onShowDay} /> : <Summary data={query.data} />}
            {query.data.totals.some((row) => awaitingConfirmation(row.unconfirmedMinutes) !== null) && (
              <Text size="sm" c="dimmed">
                Minutes awaiting confirmation come from timers that ran past midnight or for over 12 hours. They count as worked once the technician confirms them under “Time to confirm” on My Ticket.
              </Text>
            )}
            <Totals data={query.data} isStacked={isStacked} />
            <Worked data={query.data} showTechnician={showTechnician} isStacked={isStacked} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The Dashboards mode (R-279): a day's activities, the technician's own (A-125) and, for managers, the MSP's (A-126). */
export function DashboardsView({ msp, techId, canSeeEveryone }: { msp: string; techId: string; canSeeEveryone: boolean }) {
  // Null until a day is picked: today as the MSP counts it (its time zone), which the server answers with.
  const [date, setDate] = useState<string | null>(null);
  const mine = useActivities(msp, date, techId);
  const everyone = useActivities(msp, date, canSeeEveryone ? null : techId);
  // The MSP's time zone as last answered: kept while another day loads, so the day's limit and its description stay put
  // and "Next day" does not blink off under the pointer at each step.
  const [knownTimeZone, setKnownTimeZone] = useState<string | undefined>(undefined);
  if (mine.data !== undefined && mine.data.timeZone !== knownTimeZone) setKnownTimeZone(mine.data.timeZone);
  const timeZone = mine.data?.timeZone ?? knownTimeZone;
  const today = timeZone === undefined ? undefined : todayIn(timeZone);
  const shownDay = date ?? mine.data?.date ?? null;
  // Without a picked day the server answered today, so there is no next day whatever this device's clock says.
  const hasNextDay = date !== null && today !== undefined && date < today;
  // The view's own width decides (a phone, or beside an open Jarvis); until it is measured (and in jsdom) the window's.
  const { ref, width } = useElementSize();
  const isWindowPhone = useMediaQuery('(max-width: 36em)', false) === true;
  const isStacked = width > 0 ? width < STACKED_BELOW_PX : isWindowPhone;
  return (
    <Stack gap="md" ref={ref}>
      {/* Kept on one line, the arrows level with the date box: the three fit in the narrowest view (a phone, beside Jarvis). */}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          type="date"
          label="Day"
          value={shownDay ?? ''}
          onChange={(event) => setDate(event.currentTarget.value === '' ? null : event.currentTarget.value)}
          max={today}
          description={timeZone === undefined ? undefined : `Midnight to midnight, ${timeZone.replaceAll('_', ' ')} time`}
          style={{ minWidth: 0 }}
        />
        <ActionIcon variant="default" size="input-sm" aria-label="Previous day" disabled={shownDay === null} onClick={() => shownDay !== null && setDate(shiftDay(shownDay, -1))}>
          <span aria-hidden="true">‹</span>
        </ActionIcon>
        <ActionIcon variant="default" size="input-sm" aria-label="Next day" disabled={!hasNextDay} onClick={() => date !== null && setDate(shiftDay(date, 1))}>
          <span aria-hidden="true">›</span>
        </ActionIcon>
      </Group>
      <ActivityBlock title="My day" query={mine} showTechnician={false} isStacked={isStacked} currentYear={today?.slice(0, 4)} onShowDay={setDate} />
      {canSeeEveryone && <ActivityBlock title="Everyone in the MSP" query={everyone} showTechnician isStacked={isStacked} currentYear={today?.slice(0, 4)} onShowDay={setDate} />}
    </Stack>
  );
}
