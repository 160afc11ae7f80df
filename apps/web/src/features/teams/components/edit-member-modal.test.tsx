import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import type { TTeam } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { EditMemberModal } from './edit-member-modal';

const member = { id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', tierLevel: 'Tier1' as const, psaMemberId: '7', connectWiseTechnicanId: '7', isActive: true };
const team: TTeam = { id: '00000000-0000-4000-8000-000000000010', teamName: 'Escalations', boardId: 1, boardName: 'Service Desk', psaTeamId: 3, members: [member] };

afterEach(() => vi.unstubAllGlobals());

describe('EditMemberModal', () => {
  it('shows the spec message when the tier save fails (R-230)', { timeout: 20_000 }, async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ type: 'about:blank', title: 'Unavailable', status: 503, detail: 'The PSA is not answering', code: 'psa_unavailable', requestId: 'r' }), { status: 503 }));
    vi.stubGlobal('fetch', fetchMock);
    const onSaved = vi.fn();
    renderWithProviders(<EditMemberModal mspCustomDomain="northwind" team={team} member={member} onClose={() => undefined} onSaved={onSaved} />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Tier' }), 'Tier3');
    await userEvent.click(screen.getByRole('button', { name: 'Save tier' }));
    expect(await screen.findByText(MESSAGES.teams.tierSaveFailed)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('asks for a tier before saving when none is chosen', { timeout: 20_000 }, async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<EditMemberModal mspCustomDomain="northwind" team={team} member={member} onClose={() => undefined} onSaved={() => undefined} />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Tier' }), 'Choose a tier');
    await userEvent.click(screen.getByRole('button', { name: 'Save tier' }));
    expect(await screen.findByText(MESSAGES.teams.tierRequired)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
