import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PAGE_SIZE, type TTeam } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP, stubFetch } from '../../assistant/test/assistant-fixtures';
import { TeamsPage } from './teams-page';

afterEach(() => vi.unstubAllGlobals());

const member = (index: number) => ({
  id: `member-${index}`,
  firstName: 'Tech',
  lastName: String(index).padStart(2, '0'),
  email: `tech${index}@northwind.example`,
  tierLevel: 'Tier1' as const,
  psaMemberId: String(100 + index),
  connectWiseTechnicanId: String(100 + index),
  isActive: true,
});
const teamOf = (count: number): TTeam => ({ id: '8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', teamName: 'Help desk', boardId: 1, boardName: 'Service Board', psaTeamId: 7, members: Array.from({ length: count }, (_, index) => member(index + 1)) });

describe('TeamsPage member table', { timeout: 30_000 }, () => {
  // Bug: the member table paged 10 technicians at a time, while 01 §9 pages technicians 30 at a time (PAGE_SIZE).
  it('pages the members 30 at a time, the technician page size of 01 §9', async () => {
    stubFetch({ 'GET /db/api/teams/getByMspCustomDomain': () => ({ status: 200, body: { teams: [teamOf(PAGE_SIZE + 1)] } }) });
    renderWithProviders(<TeamsPage mspCustomDomain={MSP} />);
    expect(await screen.findByRole('rowheader', { name: 'Tech 30' })).toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'Tech 31' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByRole('rowheader', { name: 'Tech 31' })).toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'Tech 01' })).not.toBeInTheDocument();
  });

  it('shows no pager for a team that fits one page', async () => {
    stubFetch({ 'GET /db/api/teams/getByMspCustomDomain': () => ({ status: 200, body: { teams: [teamOf(12)] } }) });
    renderWithProviders(<TeamsPage mspCustomDomain={MSP} />);
    expect(await screen.findByRole('rowheader', { name: 'Tech 12' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '2' })).not.toBeInTheDocument();
  });

  // Regression (review s26 #4): a deactivated technician stays on the team but looked like every other member.
  it('marks a deactivated member "Inactive" in their row, and only them', async () => {
    const team = teamOf(2);
    const [leaving, staying] = team.members;
    if (!leaving || !staying) throw new Error('no members');
    const shown: TTeam = { ...team, members: [{ ...leaving, isActive: false }, staying] };
    stubFetch({ 'GET /db/api/teams/getByMspCustomDomain': () => ({ status: 200, body: { teams: [shown] } }) });
    renderWithProviders(<TeamsPage mspCustomDomain={MSP} />);
    const leavingRow = (await screen.findByRole('rowheader', { name: /Tech 01/ })).closest('tr');
    const stayingRow = screen.getByRole('rowheader', { name: /Tech 02/ }).closest('tr');
    if (!leavingRow || !stayingRow) throw new Error('no rows');
    expect(within(leavingRow).getByText('Inactive')).toBeInTheDocument();
    expect(within(stayingRow).queryByText('Inactive')).not.toBeInTheDocument();
  });
});
