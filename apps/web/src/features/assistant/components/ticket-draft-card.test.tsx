import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { basedOn, boardCatalogueOf, formFromDraft } from '../lib/ticket-draft';
import { CONFIGURATION, MSP, stubFetch, ticketDraft } from '../test/assistant-fixtures';

afterEach(() => vi.unstubAllGlobals());
import { TicketDraftCard } from './ticket-draft-card';

const catalogue = boardCatalogueOf(CONFIGURATION);
const unsure = ticketDraft({
  categorisation: {
    ...ticketDraft().categorisation,
    confidence: 0.59,
    abstained: true,
    slaHours: null,
    connectWiseDetails: null,
    alternatives: [
      { boardId: 1, typeId: 11, typeName: 'Email', subTypeId: 111, subTypeName: 'Outlook', confidence: 0.59 },
      { boardId: 1, typeId: 12, typeName: 'Network', subTypeId: 121, subTypeName: 'VPN', confidence: 0.26 },
      { boardId: 1, typeId: 12, typeName: 'Network', subTypeId: 121, subTypeName: 'VPN', confidence: 0.03 },
    ],
  },
});

function Harness() {
  const [form, setForm] = useState(() => formFromDraft(catalogue, unsure));
  return <TicketDraftCard mspCustomDomain={MSP} userKind="client" catalogue={catalogue} draft={unsure} form={form} errors={{}} isConfirming={false} isCancelling={false} onChange={setForm} onConfirm={() => {}} onCancel={() => {}} />;
}

describe('TicketDraftCard when Jarvis is not sure', () => {
  it('offers the likeliest categories as choices; one click fills board, category, subcategory, priority, tier and SLA', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const guesses = screen.getByRole('group', { name: 'Jarvis is not sure yet. Is it one of these?' });
    expect(guesses).toHaveTextContent('Email / Outlook');
    expect(guesses).toHaveTextContent('Network / VPN');
    expect(screen.getByLabelText('Category')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Email / Outlook' }));
    expect(screen.getByLabelText('Board')).toHaveValue('1');
    expect(screen.getByLabelText('Category')).toHaveValue('11');
    expect(screen.getByLabelText('Subcategory')).toHaveValue('111');
    expect(screen.getByRole('group', { name: 'Filled from the board configuration' })).toHaveTextContent('Priority: Priority 2 - High');
    expect(screen.getByRole('group', { name: 'Filled from the board configuration' })).toHaveTextContent('SLA: 4 hours');
    // Chosen: the guesses step aside, and the badge says who chose.
    expect(screen.getByText('Category chosen by you')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Jarvis is not sure yet. Is it one of these?' })).not.toBeInTheDocument();
  });

  it('offers no guesses when Jarvis proposed a category', () => {
    renderWithProviders(<TicketDraftCard mspCustomDomain={MSP} userKind="client" catalogue={catalogue} draft={ticketDraft()} form={formFromDraft(catalogue, ticketDraft())} errors={{}} isConfirming={false} isCancelling={false} onChange={() => {}} onConfirm={() => {}} onCancel={() => {}} />);
    expect(screen.queryByText('Jarvis is not sure yet. Is it one of these?')).not.toBeInTheDocument();
  });
});

describe('TicketDraftCard by role (R-265, R-271)', () => {
  const card = (userKind: 'client' | 'technician') => (
    <TicketDraftCard mspCustomDomain={MSP} userKind={userKind} catalogue={catalogue} draft={ticketDraft()} form={formFromDraft(catalogue, ticketDraft())} errors={{}} isConfirming={false} isCancelling={false} onChange={() => {}} onConfirm={() => {}} onCancel={() => {}} />
  );

  it('shows a client no Duration: their ticket takes the subcategory\'s SLA (a client could set their own due date)', () => {
    renderWithProviders(card('client'));
    expect(screen.queryByLabelText('Duration')).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Filled from the board configuration' })).toHaveTextContent('SLA: 4 hours');
  });

  it('shows a technician the Duration', () => {
    stubFetch({});
    renderWithProviders(card('technician'));
    expect(screen.getByLabelText('Duration')).toBeInTheDocument();
  });
});

describe('basedOn', () => {
  it('names each article once, not each of its passages', () => {
    expect(
      basedOn([
        { title: 'Outlook keeps asking for a password — Steps', reference: null },
        { title: 'Outlook keeps asking for a password', reference: null },
        { title: 'Password expired while working remotely: updating cached credentials — Before the password expires (preferred)', reference: null },
        { title: 'Printer offline', reference: 'ticket 100231' },
      ]),
    ).toEqual(['Outlook keeps asking for a password', 'Password expired while working remotely: updating cached credentials', 'ticket 100231']);
  });
});
