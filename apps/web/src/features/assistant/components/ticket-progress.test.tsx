import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { TicketProgress } from './ticket-progress';

function steps() {
  const list = screen.getByRole('list', { name: 'Progress of Ticket 100346' });
  return within(list).getAllByRole('listitem');
}
/** What a screen reader reads of a step: its text without the decorative bullet. */
function spoken(item: HTMLElement): string {
  const copy = item.cloneNode(true);
  if (!(copy instanceof HTMLElement)) throw new Error('not an element');
  copy.querySelectorAll('[aria-hidden="true"]').forEach((node) => node.remove());
  return copy.textContent;
}
/** How a step is drawn: ticket-progress.module.css fills "done" bullets (with their check), rings "current" ones, leaves "future" ones hollow. */
function bulletOf(item: HTMLElement) {
  const bullet = item.querySelector('.mantine-Timeline-itemBullet');
  if (!(bullet instanceof HTMLElement)) throw new Error('no bullet');
  return { state: item.dataset.stepState, mark: bullet.textContent };
}

describe('TicketProgress', () => {
  it('draws done steps filled and checked, the current step ringed and later steps hollow (done steps were drawn hollow like unreached ones)', () => {
    renderWithProviders(<TicketProgress label="Progress of Ticket 100346" done={{ ticketCreated: true }} isOnboarding={false} isPendingInPsa={false} />);
    const [created, assigned, closed] = steps();
    if (!created || !assigned || !closed) throw new Error('three steps expected');

    expect(spoken(created)).toBe('Ticket createdDone');
    expect(bulletOf(created)).toEqual({ state: 'done', mark: '✓' });

    expect(spoken(assigned)).toBe('Assigned to a technicianIn progress');
    expect(assigned).toHaveAttribute('aria-current', 'step');
    expect(bulletOf(assigned)).toEqual({ state: 'current', mark: '' });

    expect(spoken(closed)).toBe('ClosedNot reached yet');
    expect(closed).not.toHaveAttribute('aria-current');
    expect(bulletOf(closed)).toEqual({ state: 'future', mark: '' });
  });

  it('shows every step of a closed onboarding ticket as done, with nothing in progress', () => {
    const done = { ticketCreated: true, userCreatedInActiveDirectory: true, userEmailCreated: true, ticketAssigned: true, ticketClosed: true };
    renderWithProviders(<TicketProgress label="Progress of Ticket 100346" done={done} isOnboarding isPendingInPsa={false} />);
    const items = steps();
    expect(items.map(spoken)).toEqual([
      'Ticket createdDone',
      'User created in Active DirectoryDone',
      'User email createdDone',
      'Assigned to a technicianDone',
      'ClosedDone',
    ]);
    expect(items.map(bulletOf)).toEqual(items.map(() => ({ state: 'done', mark: '✓' })));
    expect(items.some((item) => item.hasAttribute('aria-current'))).toBe(false);
  });

  it('marks the first step not done as current on an onboarding ticket already assigned', () => {
    renderWithProviders(
      <TicketProgress label="Progress of Ticket 100346" done={{ ticketCreated: true, ticketAssigned: true }} isOnboarding isPendingInPsa={false} />,
    );
    const items = steps();
    expect(items.map((item) => item.getAttribute('aria-current'))).toEqual([null, 'step', null, null, null]);
    expect(items.map((item) => bulletOf(item).state)).toEqual(['done', 'current', 'future', 'done', 'future']);
  });
});
