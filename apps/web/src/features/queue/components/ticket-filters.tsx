import { useState } from 'react';
import { Badge, Button, NativeSelect, Popover, Stack } from '@mantine/core';
import { filterOptions, setFilter } from '../lib/ticket-filters';
import { ALL_FILTERS, FILTER_ALL_LABELS } from '../queue-types';
import type { TBoardChoices } from '../lib/board-choices';
import type { TTicketFilters } from '../queue-types';

const FIELD_LABELS: Record<keyof TTicketFilters, string> = { board: 'Board', type: 'Type', subtype: 'Subtype', priority: 'Priority' };
const FIELDS = Object.keys(FIELD_LABELS) as Array<keyof TTicketFilters>;

type TTicketFiltersProps = {
  boards: readonly TBoardChoices[];
  filters: TTicketFilters;
  onChange: (filters: TTicketFilters) => void;
};

/** Board, type, subtype and priority; choosing one closes the menu (R-286; the page reset is the caller's). */
export function TicketFilters({ boards, filters, onChange }: TTicketFiltersProps) {
  const [isOpen, setOpen] = useState(false);
  const activeCount = FIELDS.filter((field) => filters[field] !== 'all').length;

  function handleChange(field: keyof TTicketFilters, value: string) {
    onChange(setFilter(filters, field, value));
    setOpen(false);
  }

  return (
    <Popover opened={isOpen} onChange={setOpen} position="bottom-start" withArrow shadow="md" trapFocus>
      <Popover.Target>
        <Button variant="default" onClick={() => setOpen((open) => !open)} aria-expanded={isOpen} rightSection={activeCount > 0 ? <Badge size="sm">{activeCount}</Badge> : null}>
          Filters
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" miw={240} role="group" aria-label="Ticket filters">
          {FIELDS.map((field) => (
            <NativeSelect
              key={field}
              label={FIELD_LABELS[field]}
              value={filters[field]}
              onChange={(event) => handleChange(field, event.currentTarget.value)}
              data={[{ value: 'all', label: FILTER_ALL_LABELS[field] }, ...filterOptions(boards, field, filters).map((choice) => ({ value: choice.id, label: choice.name }))]}
            />
          ))}
          <Button variant="subtle" size="xs" disabled={activeCount === 0} onClick={() => { onChange(ALL_FILTERS); setOpen(false); }}>
            Clear filters
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
