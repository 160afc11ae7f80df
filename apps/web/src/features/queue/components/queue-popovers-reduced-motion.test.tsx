import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { createBrandTheme } from '../../../app/brand/brand-theme';
import { ALL_FILTERS } from '../queue-types';
import type { TBoardChoices } from '../lib/board-choices';
import type { TTicketFilters } from '../queue-types';
import { ShortcutsHelp } from './shortcuts-help';
import { TicketFilters } from './ticket-filters';

/**
 * A person whose system asks for less motion gets the queue's popovers without animation (the theme's
 * respectReducedMotion), and they still open and close. Checked in Chromium with reducedMotion 'reduce' (s29): both open.
 *
 * jsdom lays nothing out: every rect is 0×0 and the viewport (html.clientWidth/Height) is 0×0, so floating-ui's `hide`
 * middleware reports the target as clipped and Mantine's Popover (hideDetached, on by default) gives an opened dropdown
 * `display: none` once its position resolves. With transitions the dropdown mounts a frame after the click and a
 * findBy can catch it before that; with reduced motion it mounts inside the click and is already hidden. The test
 * theme turns hideDetached off so "hidden" here means closed, as in a browser; the app's theme is otherwise unchanged.
 */
const theme = mergeThemeOverrides(createBrandTheme(), { components: { Popover: { defaultProps: { hideDetached: false } } } });

const BOARDS: TBoardChoices[] = [
  { boardId: '1', boardName: 'Service Desk', types: [], priorities: [{ id: '7', name: 'Priority 1 - Critical' }] },
];

function reduceMotion() {
  const answer = window.matchMedia.bind(window);
  vi.stubGlobal('matchMedia', (query: string) => ({ ...answer(query), matches: query === '(prefers-reduced-motion: reduce)' }));
}

/** The popover's dropdown around an element in it: without animation it carries no transition. */
function dropdownOf(element: HTMLElement): HTMLElement {
  const dropdown = element.closest<HTMLElement>('[role="dialog"]');
  if (!dropdown) throw new Error('not inside a popover dropdown');
  return dropdown;
}

function FiltersWithState({ onChange }: { onChange: (filters: TTicketFilters) => void }) {
  const [filters, setFilters] = useState<TTicketFilters>(ALL_FILTERS);
  return (
    <TicketFilters
      boards={BOARDS}
      filters={filters}
      onChange={(next) => {
        setFilters(next);
        onChange(next);
      }}
    />
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('queue popovers with reduced motion', () => {
  it('the keyboard shortcuts list opens without animation and Escape closes it', async () => {
    reduceMotion();
    render(
      <MantineProvider theme={theme}>
        <ShortcutsHelp />
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'Keyboard shortcuts' });
    await userEvent.click(button);
    const help = await screen.findByRole('list', { name: 'Keyboard shortcuts list' });
    expect(help).toBeVisible();
    expect(dropdownOf(help).style.transitionDuration).toBe('');
    expect(within(help).getByText('Get next tickets')).toBeVisible();
    expect(button).toHaveAttribute('aria-expanded', 'true');

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('list', { name: 'Keyboard shortcuts list' })).not.toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('the ticket filters open without animation, and choosing a filter applies it and closes them (R-286)', async () => {
    reduceMotion();
    const handleChange = vi.fn();
    render(
      <MantineProvider theme={theme}>
        <FiltersWithState onChange={handleChange} />
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'Filters' });
    await userEvent.click(button);
    const filters = await screen.findByRole('group', { name: 'Ticket filters' });
    expect(filters).toBeVisible();
    expect(dropdownOf(filters).style.transitionDuration).toBe('');

    await userEvent.selectOptions(within(filters).getByLabelText('Priority'), 'Priority 1 - Critical');
    expect(handleChange).toHaveBeenLastCalledWith({ ...ALL_FILTERS, priority: '7' });
    expect(screen.queryByRole('group', { name: 'Ticket filters' })).not.toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
