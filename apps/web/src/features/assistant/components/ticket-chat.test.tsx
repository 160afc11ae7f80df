import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, TICKET_DRAFT_ENDED_FLAG } from '@switchboard/contracts';
import type { TChatMessage, TCreateTicketBody, TSessionMspUser, TTicketDraft } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { resetAllStores } from '../../../lib/store-reset';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { ClientTicketArea } from '../../client-tickets/pages/client-ticket-area';
import { useTicketFlow } from '../state/use-ticket-flow';
import { CONFIGURATION, DRAFT_ID, FLOW_BUTTONS, MSP, assistantMessage, stepElements, stubFetch, ticketDraft, type TCall } from '../test/assistant-fixtures';
import { TicketChat } from './ticket-chat';

const CLIENT: TSessionMspUser = buildAdminTechnician({ userKind: 'client', firstName: 'Casey', lastName: 'Client', psaCompanyId: '19', psaContactId: '501', roleName: 'Client' });

const TECHNICIAN: TSessionMspUser = buildAdminTechnician({ firstName: 'Jordan', lastName: 'Avila', roleName: 'Technician' });

function TechnicianHarness({ user }: { user: TSessionMspUser }) {
  const flow = useTicketFlow(user);
  return <TicketChat user={user} flow={flow} showDraft />;
}

function Harness({ user }: { user: TSessionMspUser }) {
  const flow = useTicketFlow(user);
  return (
    <>
      <ClientTicketArea user={user} flow={flow} showDraft onOpenAssistant={() => undefined} />
      <TicketChat user={user} flow={flow} showDraft={false} />
    </>
  );
}

const EMPTY_TICKETS = { status: 200, body: { tickets: [], page: 1, pageSize: 30, total: 0 } };

let stepFeedbackCount = 0;

function stubFlow() {
  stepFeedbackCount = 0;
  return stubFetch({
    [`GET /db/${MSP}/getPSATicketingConfiguration`]: () => ({ status: 200, body: CONFIGURATION }),
    'GET /db/supportTickets/byClientsUserId': () => EMPTY_TICKETS,
    'GET /psa/ticketDraft/open': () => ({ status: 200, body: { ticketDraft: null } }),
    'POST /psa/getTicketCategorizationDiagnosticQandA': (call) => {
      const body = call.body as { ticketDraftId?: string };
      if (body.ticketDraftId === undefined) return { status: 200, body: { ticketDraft: ticketDraft() } };
      const steps = [...stepElements('s1', '1. Remove the saved Outlook password from Credential Manager'), ...stepElements('s2', '2. Restart Outlook'), ...FLOW_BUTTONS];
      return {
        status: 200,
        body: { ticketDraft: ticketDraft({ stage: 'troubleshooting', questions: [], message: assistantMessage('m2', 'Try these steps:', steps, 'troubleshootButtons') }) },
      };
    },
    'POST /psa/createTicket': () => ({
      status: 201,
      body: { ticketId: 4711, ticketNumber: '4711', requestId: 'req-1', psaWriteState: 'done', summary: 'Your ticket 4711 was created on Service Desk: Email / Outlook, priority Priority 2 - High.', mode: 'All Tickets' },
    }),
    'POST /psa/ticketDraft/cancel': () => ({ status: 200, body: { message: MESSAGES.ticketCreationCancelled, mode: 'All Tickets' } }),
    'POST /psa/ticketDraft/stepFeedback': (call) => {
      const count = (stepFeedbackCount += (call.body as { helped: boolean }).helped ? 0 : 1);
      const offer = count >= 2;
      return {
        status: 200,
        body: {
          didNotHelpCount: count,
          offerTechnician: offer,
          message: assistantMessage(`f${count}`, offer ? MESSAGES.assistant.didNotHelpTwice : 'Sorry that did not help. Try the next step.', offer ? FLOW_BUTTONS.slice(0, 1) : []),
        },
      };
    },
    // What the server answers for a ticket kept while the PSA is away (its summary is the pending message).
    'POST /psa/ticketDraft/talkToTechnician': () => ({
      status: 202,
      body: { ticketId: null, ticketNumber: null, requestId: 'req-2', psaWriteState: 'pending', summary: MESSAGES.assistant.ticketPendingInPsa, mode: 'All Tickets' },
    }),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  resetAllStores();
});

/** Holds every request to `path` (over the fetch stub in place) until `release` is called. */
function holdRequests(path: string) {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetchStub = vi.mocked(fetch);
  const answer = fetchStub.getMockImplementation();
  fetchStub.mockImplementation(async (input, init) => {
    if (!answer) throw new Error('no fetch stub');
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(path)) await released;
    return answer(input, init);
  });
  return () => release();
}

/** Writes a message to Jarvis and presses Enter; pasted, as one input, not one re-render of the chat per character. */
async function sendMessage(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(screen.getByRole('textbox', { name: 'Message to Jarvis' }));
  await user.paste(text);
  await user.keyboard('{Enter}');
}

/** A client describes the password problem, answers Yes and sends it: the troubleshooting steps Jarvis shows. */
async function reachSteps(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  renderWithProviders(<Harness user={CLIENT} />);
  await sendMessage(user, 'Outlook keeps asking for my password');
  await user.click(within(await screen.findByRole('group', { name: 'Answers' })).getByRole('button', { name: 'Yes' }));
  await user.click(screen.getByRole('button', { name: 'Send 1 answer' }));
  return screen.findByRole('group', { name: 'Troubleshooting steps' });
}

describe('tickets by chat (02 §4)', () => {
  it('describe → questions and a proposal in "My Ticket" → answers → troubleshooting buttons → confirm → summary and "All Tickets"', { timeout: 30_000 }, async () => {
    const calls = stubFlow();
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'Outlook keeps asking for my password');

    // Step 2: the questions come as buttons and the ticket area shows the proposal with Confirm and Cancel.
    const answers = await screen.findByRole('group', { name: 'Answers' });
    expect(within(answers).getByRole('button', { name: 'Yes' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'My Ticket' })).toBeChecked();
    expect(screen.getByLabelText('Board')).toHaveValue('1');
    expect(screen.getByLabelText('Category')).toHaveValue('11');
    expect(screen.getByLabelText('Subcategory')).toHaveValue('111');
    expect(screen.getByRole('group', { name: 'Filled from the board configuration' })).toHaveTextContent('Priority 2 - High');
    expect(screen.getByRole('group', { name: 'Filled from the board configuration' })).toHaveTextContent('Tier: Tier2');
    expect(screen.getByText('Proposed · 93% sure')).toBeInTheDocument();
    expect(calls.find((call) => call.url === '/psa/getTicketCategorizationDiagnosticQandA')?.body).toMatchObject({ userMessage: 'Outlook keeps asking for my password', mspCustomDomain: MSP, userId: CLIENT.id });

    // Step 3: an answer, then the second round gives troubleshooting steps as buttons.
    await user.click(within(answers).getByRole('button', { name: 'No' }));
    expect(within(answers).getByRole('button', { name: 'No' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Send 1 answer' }));
    // The chat shows the answer beside its question (it read a bare "No").
    expect(await screen.findByText('Does it happen on your phone too? No')).toBeInTheDocument();
    const steps = await screen.findByRole('group', { name: 'Troubleshooting steps' });
    expect(within(steps).getByRole('button', { name: '2. Restart Outlook' })).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/psa/getTicketCategorizationDiagnosticQandA')[1]?.body).toMatchObject({ ticketDraftId: DRAFT_ID, answers: [{ questionId: 'q1', answer: 'No' }] });

    // Step 4: confirm creates the ticket with the proposed board, type, subtype and priority.
    await user.click(within(screen.getByRole('region', { name: 'Your ticket' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Your ticket 4711 was created on Service Desk: Email / Outlook, priority Priority 2 - High.')).toBeInTheDocument();
    const created = calls.find((call) => call.url.startsWith('/psa/createTicket'));
    expect(created?.url).toContain(`mspCustomDomain=${MSP}`);
    expect(created?.body as TCreateTicketBody).toMatchObject({
      ticketDraftId: DRAFT_ID,
      userId: CLIENT.id,
      title: 'Outlook keeps asking for my password',
      connectWiseDetails: { boardId: 1, boardName: 'Service Desk', typeId: 11, typeName: 'Email', subTypeId: 111, subTypeName: 'Outlook', priority: 'Priority 2 - High', priorityId: 1111, tier: 'Tier2' },
    });
    expect(screen.getByRole('radio', { name: 'All Tickets' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
  });

  it('a technician chooses the company and contact from the ticket form lookups (decision 028), and the ticket carries them', { timeout: 30_000 }, async () => {
    const calls = stubFlow();
    // The ticket form's own lookups; are not asked (they answer 404 here, like any unknown call).
    const fetchStub = vi.mocked(fetch);
    const answerAll = fetchStub.getMockImplementation();
    fetchStub.mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith(`/db/${MSP}/ticketForm/companies`)) {
        calls.push({ url, method: 'GET', body: undefined });
        return new Response(JSON.stringify({ items: [{ psaCompanyId: '19', name: 'Brightwater Family Dental' }], hasMore: false }), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      if (url.startsWith(`/db/${MSP}/ticketForm/contacts`)) {
        calls.push({ url, method: 'GET', body: undefined });
        const items = [
          { psaContactId: '501', firstName: 'Tanya', lastName: 'Beaulieu', email: 'tanya@brightwater.example', phone: '3035550119' },
          { psaContactId: '502', firstName: 'Helen', lastName: 'Marchetti', email: 'helen@brightwater.example', phone: null },
        ].filter((contact) => !url.includes('search=') || url.includes('search=Beau') === (contact.lastName === 'Beaulieu'));
        return new Response(JSON.stringify({ items, hasMore: false }), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      if (url === '/psa/getTicketCategorizationDiagnosticQandA') {
        // A technician's draft names nobody yet: the company and contact are theirs to choose.
        return new Response(JSON.stringify({ ticketDraft: ticketDraft({ psaCompanyId: null, psaContactId: null, name: '', emailId: '', phone: '' }) }), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      if (!answerAll) throw new Error('no fetch stub');
      return answerAll(input, init);
    });
    const user = userEvent.setup();
    renderWithProviders(<TechnicianHarness user={TECHNICIAN} />);
    await sendMessage(user, 'Outlook keeps asking for my password');
    const ticket = await screen.findByRole('region', { name: 'Your ticket' });
    const contact = within(ticket).getByLabelText('Contact');
    expect(contact).toBeDisabled();
    expect(within(contact).getByRole('option', { name: 'Choose a company first' })).toBeInTheDocument();
    const company = within(ticket).getByLabelText('Company');
    await within(company).findByRole('option', { name: 'Brightwater Family Dental' });
    await user.selectOptions(company, '19');
    await within(contact).findByRole('option', { name: 'Helen Marchetti (helen@brightwater.example)' });
    await user.type(within(ticket).getByLabelText('Find a contact'), 'Beau');
    await waitFor(() => expect(within(contact).queryByRole('option', { name: /Helen Marchetti/ })).not.toBeInTheDocument());
    await user.selectOptions(contact, '501');
    expect(within(ticket).getByLabelText('Name')).toHaveValue('Tanya Beaulieu');
    expect(within(ticket).getByLabelText('Email')).toHaveValue('tanya@brightwater.example');
    expect(within(ticket).getByLabelText('Phone')).toHaveValue('3035550119');
    expect(calls.some((call) => call.url.includes('/psaClients') || call.url.includes('/psaContactsByClientId'))).toBe(false);
    expect(calls.some((call) => call.url.startsWith(`/db/${MSP}/ticketForm/contacts`) && call.url.includes('psaCompanyId=19') && call.url.includes('search=Beau'))).toBe(true);

    await user.click(within(ticket).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Your ticket 4711 was created on Service Desk: Email / Outlook, priority Priority 2 - High.');
    expect(calls.find((call) => call.url.startsWith('/psa/createTicket'))?.body as TCreateTicketBody).toMatchObject({ techId: TECHNICIAN.id, psaCompanyId: '19', psaContactId: '501', name: 'Tanya Beaulieu', emailId: 'tanya@brightwater.example' });
  });

  it('cancel shows "Ticket Creation Cancelled.", clears the form and goes to "All Tickets" (R-261)', { timeout: 20_000 }, async () => {
    const calls = stubFlow();
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'My VPN drops');
    await user.click(within(await screen.findByRole('region', { name: 'Your ticket' })).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(MESSAGES.ticketCreationCancelled)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'All Tickets' })).toBeChecked();
    expect(screen.queryByLabelText('Board')).not.toBeInTheDocument();
    expect(calls.some((call) => call.url.startsWith('/psa/ticketDraft/cancel') && call.url.includes(`ticketDraftId=${DRAFT_ID}`))).toBe(true);
    expect(calls.some((call) => call.url.startsWith('/psa/createTicket'))).toBe(false);
  });

  it('changing the board clears category and subcategory with what they filled; confirm then shows the form messages and sends nothing', { timeout: 20_000 }, async () => {
    const calls = stubFlow();
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'Outlook keeps asking for my password');
    await screen.findByRole('group', { name: 'Answers' });
    await user.selectOptions(screen.getByLabelText('Board'), '2');
    expect(screen.getByLabelText('Category')).toHaveValue('');
    expect(screen.getByLabelText('Subcategory')).toHaveValue('');
    expect(screen.getByRole('group', { name: 'Filled from the board configuration' })).not.toHaveTextContent('Priority 2 - High');
    await user.clear(screen.getByLabelText('Ticket title'));
    // The chat's own Confirm button runs the same check.
    await user.click(within(screen.getByRole('log', { name: 'Ticket chat' })).getByRole('button', { name: 'Confirm' }));
    for (const message of [MESSAGES.ticketForm.titleRequired, MESSAGES.ticketForm.categoryRequired, MESSAGES.ticketForm.subCategoryRequired]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(calls.some((call) => call.url.startsWith('/psa/createTicket'))).toBe(false);
  });

  it('two steps that did not help offer a technician at once, who gets the ticket with what was said so far', { timeout: 30_000 }, async () => {
    const calls = stubFlow();
    const user = userEvent.setup();
    const steps = await reachSteps(user);
    await user.click(within(steps).getAllByRole('button', { name: 'This did not help' })[0] as HTMLElement);
    expect(await screen.findByText('Sorry that did not help. Try the next step.')).toBeInTheDocument();
    await user.click(within(screen.getByRole('group', { name: 'Troubleshooting steps' })).getAllByRole('button', { name: 'This did not help' })[1] as HTMLElement);
    expect(await screen.findByText(MESSAGES.assistant.didNotHelpTwice)).toBeInTheDocument();
    expect(calls.filter((call) => call.url.startsWith('/psa/ticketDraft/stepFeedback')).map((call) => call.body)).toEqual([
      { stepId: 's1', helped: false },
      { stepId: 's2', helped: false },
    ]);
    // The header's button is emphasised now (it stayed plain), and the offer keeps the round's Confirm and Cancel in reach.
    const chat = screen.getByRole('log', { name: 'Ticket chat' });
    const header = screen.getAllByRole('button', { name: MESSAGES.assistant.talkToTechnician }).find((button) => !chat.contains(button));
    expect(header).toHaveAttribute('data-variant', 'filled');
    expect(within(chat).getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(within(chat).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(chat).getAllByRole('button', { name: MESSAGES.assistant.talkToTechnician })).toHaveLength(1);
    await user.click(within(chat).getByRole('button', { name: MESSAGES.assistant.talkToTechnician }));
    // "Pending in the PSA" is said once (it was said twice: the summary already is that message).
    await screen.findByText(MESSAGES.assistant.ticketPendingInPsa);
    expect(document.body.textContent?.split(MESSAGES.assistant.ticketPendingInPsa)).toHaveLength(2);
    expect(screen.getByRole('radio', { name: 'All Tickets' })).toBeChecked();
  });

  it('a draft closed elsewhere (another tab confirmed it) ends the flow: the server\'s message, "All Tickets", and the next message starts a new draft (every answer got 409)', { timeout: 30_000 }, async () => {
    const calls = stubFlow();
    const answerAll = vi.mocked(fetch).getMockImplementation();
    const closed = { status: 409, title: 'Conflict', detail: MESSAGES.assistant.ticketDraftClosed, code: 'conflict', requestId: 'r', flags: { [TICKET_DRAFT_ENDED_FLAG]: true } };
    let isClosed = true;
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url === '/psa/getTicketCategorizationDiagnosticQandA' && isClosed && typeof init?.body === 'string' && init.body.includes('ticketDraftId')) {
        calls.push({ url, method: 'POST', body: JSON.parse(init.body) as unknown });
        return new Response(JSON.stringify(closed), { status: 409, headers: { 'content-type': 'application/problem+json' } });
      }
      if (!answerAll) throw new Error('no fetch stub');
      return answerAll(input, init);
    });
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'Outlook keeps asking for my password');
    await user.click(within(await screen.findByRole('group', { name: 'Answers' })).getByRole('button', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Send 1 answer' }));
    expect(await screen.findByText(MESSAGES.assistant.ticketDraftClosed)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('radio', { name: 'All Tickets' })).toBeChecked());
    expect(screen.queryByRole('region', { name: 'Your ticket' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Answers' })).not.toBeInTheDocument();

    isClosed = false;
    await sendMessage(user, 'My VPN drops');
    await screen.findByRole('group', { name: 'Answers' });
    const sent = calls.filter((call) => call.url === '/psa/getTicketCategorizationDiagnosticQandA');
    expect(sent).toHaveLength(3);
    expect(sent[2]?.body).not.toHaveProperty('ticketDraftId');
    expect(sent[2]?.body).toMatchObject({ userMessage: 'My VPN drops' });
  });

  it('a Cancel answered "not found" (the draft is gone) ends the flow too, with the server\'s message', { timeout: 20_000 }, async () => {
    stubFlow();
    const answerAll = vi.mocked(fetch).getMockImplementation();
    vi.mocked(fetch).mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith('/psa/ticketDraft/cancel')) {
        const gone = { status: 404, title: 'Not Found', detail: MESSAGES.assistant.ticketDraftNotFound, code: 'not_found', requestId: 'r', flags: { [TICKET_DRAFT_ENDED_FLAG]: true } };
        return new Response(JSON.stringify(gone), { status: 404, headers: { 'content-type': 'application/problem+json' } });
      }
      if (!answerAll) throw new Error('no fetch stub');
      return answerAll(input, init);
    });
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'My VPN drops');
    await user.click(within(await screen.findByRole('region', { name: 'Your ticket' })).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(MESSAGES.assistant.ticketDraftNotFound)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'All Tickets' })).toBeChecked();
    expect(screen.queryByRole('region', { name: 'Your ticket' })).not.toBeInTheDocument();
  });

  it('the next chat round keeps the title and category the person changed in the form (the new proposal replaced them)', { timeout: 30_000 }, async () => {
    stubFlow();
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'Outlook keeps asking for my password');
    const answers = await screen.findByRole('group', { name: 'Answers' });
    const ticket = screen.getByRole('region', { name: 'Your ticket' });
    await user.clear(within(ticket).getByLabelText('Ticket title'));
    await user.paste('Password prompt loop');
    await user.selectOptions(within(ticket).getByLabelText('Category'), '12');
    await user.selectOptions(within(ticket).getByLabelText('Subcategory'), '121');
    await user.selectOptions(within(ticket).getByLabelText('Impact'), 'High');
    await user.click(within(answers).getByRole('button', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Send 1 answer' }));
    await screen.findByRole('group', { name: 'Troubleshooting steps' });
    const after = screen.getByRole('region', { name: 'Your ticket' });
    expect(within(after).getByLabelText('Ticket title')).toHaveValue('Password prompt loop');
    expect(within(after).getByLabelText('Category')).toHaveValue('12');
    expect(within(after).getByLabelText('Subcategory')).toHaveValue('121');
    expect(within(after).getByLabelText('Impact')).toHaveValue('High');
  });

  it('a double click on the chat\'s Confirm creates one ticket: the flow buttons wait, disabled, while it is created (it sent two and showed an error under the summary)', { timeout: 30_000 }, async () => {
    const calls = stubFlow();
    const release = holdRequests('/psa/createTicket');
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'Outlook keeps asking for my password');
    await screen.findByRole('group', { name: 'Answers' });
    const chat = screen.getByRole('log', { name: 'Ticket chat' });
    await user.dblClick(within(chat).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(chat).getByRole('button', { name: 'Confirm' })).toBeDisabled());
    // The pressed one says it is working.
    expect(within(chat).getByRole('button', { name: 'Confirm' })).toHaveAttribute('data-loading', 'true');
    expect(within(chat).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    for (const button of screen.getAllByRole('button', { name: MESSAGES.assistant.talkToTechnician })) expect(button).toBeDisabled();
    expect(within(screen.getByRole('region', { name: 'Your ticket' })).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.click(within(chat).getByRole('button', { name: 'Cancel' }));
    release();
    expect(await screen.findByText('Your ticket 4711 was created on Service Desk: Email / Outlook, priority Priority 2 - High.')).toBeInTheDocument();
    expect(calls.filter((call) => call.url.startsWith('/psa/createTicket'))).toHaveLength(1);
    expect(calls.some((call) => call.url.startsWith('/psa/ticketDraft/cancel'))).toBe(false);
    expect(screen.queryByText(MESSAGES.ticketCreationCancelled)).not.toBeInTheDocument();
  });

  it('a double click on "This did not help" counts once (it counted twice and offered a technician after one step)', { timeout: 30_000 }, async () => {
    const calls = stubFlow();
    const user = userEvent.setup();
    const steps = await reachSteps(user);
    const release = holdRequests('/psa/ticketDraft/stepFeedback');
    await user.dblClick(within(steps).getAllByRole('button', { name: 'This did not help' })[0] as HTMLElement);
    await waitFor(() => {
      for (const button of within(steps).getAllByRole('button', { name: 'This did not help' })) expect(button).toBeDisabled();
    });
    release();
    expect(await screen.findByText('Sorry that did not help. Try the next step.')).toBeInTheDocument();
    expect(calls.filter((call) => call.url.startsWith('/psa/ticketDraft/stepFeedback')).map((call) => call.body)).toEqual([{ stepId: 's1', helped: false }]);
    expect(screen.queryByText(MESSAGES.assistant.didNotHelpTwice)).not.toBeInTheDocument();
  });

  it('a 500 from the categorisation shows a server error and leaves the chat usable (R-262)', { timeout: 20_000 }, async () => {
    stubFetch({
      [`GET /db/${MSP}/getPSATicketingConfiguration`]: () => ({ status: 200, body: CONFIGURATION }),
      'GET /db/supportTickets/byClientsUserId': () => EMPTY_TICKETS,
      'POST /psa/getTicketCategorizationDiagnosticQandA': () => ({ status: 500, body: { status: 500, title: 'Internal', detail: MESSAGES.unexpectedError, code: 'internal', requestId: 'r' } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<Harness user={CLIENT} />);
    await sendMessage(user, 'Printer is on fire');
    expect(await screen.findByText('Jarvis could not categorise this right now. You can still talk to a technician or try again.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message to Jarvis' })).toBeEnabled();
  });

  describe('after a reload: the open draft is read back and the chat carries on (the chat and the draft were gone)', () => {
    const personSaid = (id: string, content: string): TChatMessage => ({ ...assistantMessage(id, content, []), role: 'user' });
    const STEPS = [...stepElements('s1', '1. Remove the saved Outlook password from Credential Manager'), ...FLOW_BUTTONS];

    /** The flow's stub, with the open draft and its stored conversation answering as the server would. */
    function stubOpenDraft(draft: TTicketDraft, conversation: TChatMessage[]): TCall[] {
      const calls = stubFlow();
      const answerAll = vi.mocked(fetch).getMockImplementation();
      vi.mocked(fetch).mockImplementation(async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url.startsWith('/psa/ticketDraft/open') || url.startsWith('/db/getMessages')) {
          calls.push({ url, method: 'GET', body: undefined });
          const body = url.startsWith('/psa/ticketDraft/open') ? { ticketDraft: draft } : { messages: conversation, page: 1, pageSize: 30, total: conversation.length };
          return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
        }
        if (!answerAll) throw new Error('no fetch stub');
        return answerAll(input, init);
      });
      return calls;
    }

    it('in the questions stage: the first message, the questions and the draft card come back, and the answers go on with that draft', { timeout: 30_000 }, async () => {
      const draft = ticketDraft();
      const calls = stubOpenDraft(draft, [personSaid('u1', 'Outlook keeps asking for my password'), draft.message]);
      const user = userEvent.setup();
      renderWithProviders(<TechnicianHarness user={CLIENT} />);

      const chat = await screen.findByRole('log', { name: 'Ticket chat' });
      expect(await within(chat).findByText('Outlook keeps asking for my password')).toBeInTheDocument();
      const answers = await within(chat).findByRole('group', { name: 'Answers' });
      const ticket = screen.getByRole('region', { name: 'Your ticket' });
      expect(within(ticket).getByLabelText('Ticket title')).toHaveValue('Outlook keeps asking for my password');
      expect(within(ticket).getByLabelText('Subcategory')).toHaveValue('111');
      expect(calls.filter((call) => call.url.startsWith('/psa/ticketDraft/open'))).toHaveLength(1);
      expect(calls.find((call) => call.url.startsWith('/psa/ticketDraft/open'))?.url).toContain(`mspCustomDomain=${MSP}`);

      await user.click(within(answers).getByRole('button', { name: 'No' }));
      await user.click(screen.getByRole('button', { name: 'Send 1 answer' }));
      await screen.findByRole('group', { name: 'Troubleshooting steps' });
      expect(calls.find((call) => call.url === '/psa/getTicketCategorizationDiagnosticQandA')?.body).toMatchObject({ ticketDraftId: DRAFT_ID, answers: [{ questionId: 'q1', answer: 'No' }] });
    });

    it('in the troubleshooting stage: the questions with the answers and the steps come back, and Cancel cancels that draft', { timeout: 30_000 }, async () => {
      const draft = ticketDraft({ stage: 'troubleshooting', steps: [{ id: 's1', text: 'Remove the saved Outlook password from Credential Manager', sources: [] }], message: assistantMessage('m2', 'Try these steps:', STEPS, 'troubleshootButtons') });
      const first = ticketDraft().message;
      const calls = stubOpenDraft(draft, [personSaid('u1', 'Outlook keeps asking for my password'), first, personSaid('u2', 'Does it happen on your phone too? No'), draft.message]);
      const user = userEvent.setup();
      renderWithProviders(<TechnicianHarness user={CLIENT} />);

      const chat = await screen.findByRole('log', { name: 'Ticket chat' });
      expect(await within(chat).findByText('Does it happen on your phone too? No')).toBeInTheDocument();
      expect(within(chat).getByText('Outlook keeps asking for my password')).toBeInTheDocument();
      expect(within(chat).getByRole('group', { name: 'Troubleshooting steps' })).toBeInTheDocument();
      expect(screen.getByText('Try the steps, or confirm the ticket.')).toBeInTheDocument();

      await user.click(within(screen.getByRole('region', { name: 'Your ticket' })).getByRole('button', { name: 'Cancel' }));
      expect(await screen.findByText(MESSAGES.ticketCreationCancelled)).toBeInTheDocument();
      expect(calls.some((call) => call.url.startsWith('/psa/ticketDraft/cancel') && call.url.includes(`ticketDraftId=${DRAFT_ID}`))).toBe(true);
    });

    describe('a long conversation (a restored chat showed only its newest 30 messages, without its beginning)', () => {
      const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 15, 0, second)).toISOString();
      /** Messages 1–44 said and answered in turn, then the latest round's message (the draft's): 45 in all. */
      function longConversation(draft: TTicketDraft): TChatMessage[] {
        const said = Array.from({ length: 44 }, (_, index): TChatMessage => {
          const number = index + 1;
          const message = number % 2 === 1 ? personSaid(`said-${number}`, `Said ${number}`) : assistantMessage(`answer-${number}`, `Answer ${number}`, []);
          return { ...message, timeStamp: at(number) };
        });
        return [...said, { ...draft.message, timeStamp: at(45) }];
      }
      const EXPECTED = [...Array.from({ length: 44 }, (_, index) => (index % 2 === 0 ? `Said ${index + 1}` : `Answer ${index + 1}`)), 'I think this is Email › Outlook. Does it happen on your phone too?'];

      /**
       * The flow's stub with a stored conversation paged as the server pages it (A-016: page 1 the newest 30,
       * each page oldest first). A second round stores its question and answer, so later pages shift as they do.
       */
      function stubStoredConversation(draft: TTicketDraft, stored: TChatMessage[], options: { failingPage?: number } = {}): TCall[] {
        const calls = stubFlow();
        const answerAll = vi.mocked(fetch).getMockImplementation();
        const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
        vi.mocked(fetch).mockImplementation(async (input, init) => {
          const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
          if (!answerAll) throw new Error('no fetch stub');
          if (url.startsWith('/psa/ticketDraft/open')) {
            calls.push({ url, method: 'GET', body: undefined });
            return json({ ticketDraft: draft });
          }
          if (url.startsWith('/db/getMessages')) {
            calls.push({ url, method: 'GET', body: undefined });
            const page = Number(new URL(url, 'http://localhost').searchParams.get('page') ?? '1');
            if (page === options.failingPage) {
              options.failingPage = undefined;
              return json({ status: 503, title: 'Unavailable', detail: 'The service is busy. Try again in a moment.', code: 'unavailable', requestId: 'r' }, 503);
            }
            const end = stored.length - (page - 1) * 30;
            return json({ messages: stored.slice(Math.max(0, end - 30), Math.max(0, end)), page, pageSize: 30, total: stored.length });
          }
          const answer = await answerAll(input, init);
          if (url.startsWith('/psa/getTicketCategorizationDiagnosticQandA')) {
            const { ticketDraft: next } = (await answer.clone().json()) as { ticketDraft: TTicketDraft };
            stored.push({ ...personSaid('said-next', 'Does it happen on your phone too? No'), timeStamp: at(46) }, { ...next.message, timeStamp: at(47) });
          }
          return answer;
        });
        return calls;
      }

      /** What the ticket chat shows of the conversation, top to bottom. */
      const shownConversation = (chat: HTMLElement) =>
        within(chat)
          .getAllByText((_, element) => element?.tagName === 'P' && /^(Said|Answer) \d+$|^I think this is Email › Outlook/.test(element.textContent ?? ''))
          .map((element) => element.textContent);

      it('restores the newest 30 with "Show older messages" above them; pressing it brings back the beginning, all 45 in order, once each', { timeout: 30_000 }, async () => {
        const draft = ticketDraft();
        const calls = stubStoredConversation(draft, longConversation(draft));
        const user = userEvent.setup();
        renderWithProviders(<TechnicianHarness user={CLIENT} />);

        const chat = await screen.findByRole('log', { name: 'Ticket chat' });
        await within(chat).findByRole('group', { name: 'Answers' });
        expect(shownConversation(chat)).toEqual(EXPECTED.slice(15));
        const older = within(chat).getByRole('button', { name: 'Show older messages' });
        // Above the conversation, where the older messages will appear.
        expect(older.compareDocumentPosition(within(chat).getByText('Answer 16')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

        await user.click(older);
        expect(await within(chat).findByText('Said 1')).toBeInTheDocument();
        expect(shownConversation(chat)).toEqual(EXPECTED);
        expect(within(chat).queryByRole('button', { name: 'Show older messages' })).not.toBeInTheDocument();
        expect(calls.filter((call) => call.url.startsWith('/db/getMessages')).map((call) => new URL(call.url, 'http://localhost').searchParams.get('page'))).toEqual(['1', '2']);
        // The older answers bring back no buttons: the flow's buttons stay on the newest round.
        expect(within(chat).getAllByRole('group', { name: 'Answers' })).toHaveLength(1);

        await user.click(within(screen.getByRole('region', { name: 'Your ticket' })).getByRole('button', { name: 'Cancel' }));
        expect(await screen.findByText(MESSAGES.ticketCreationCancelled)).toBeInTheDocument();
        expect(screen.queryByText('Said 1')).not.toBeInTheDocument();
      });

      it('after the chat went on, the older messages still come once each and in order (the pages shifted by the new round); a failed load says so and can be tried again', { timeout: 30_000 }, async () => {
        const draft = ticketDraft();
        const stored = longConversation(draft);
        stubStoredConversation(draft, stored, { failingPage: 2 });
        const user = userEvent.setup();
        renderWithProviders(<TechnicianHarness user={CLIENT} />);

        const chat = await screen.findByRole('log', { name: 'Ticket chat' });
        await user.click(within(await within(chat).findByRole('group', { name: 'Answers' })).getByRole('button', { name: 'No' }));
        await user.click(screen.getByRole('button', { name: 'Send 1 answer' }));
        await within(chat).findByRole('group', { name: 'Troubleshooting steps' });
        expect(stored).toHaveLength(47);

        await user.click(within(chat).getByRole('button', { name: 'Show older messages' }));
        expect(await within(chat).findByText('The older messages could not be loaded. The service is busy. Try again in a moment.')).toBeInTheDocument();
        expect(shownConversation(chat)).toEqual(EXPECTED.slice(15));

        await user.click(within(chat).getByRole('button', { name: 'Show older messages' }));
        expect(await within(chat).findByText('Said 1')).toBeInTheDocument();
        expect(shownConversation(chat)).toEqual(EXPECTED);
        expect(within(chat).getByText('Does it happen on your phone too? No')).toBeInTheDocument();
        expect(within(chat).getByText('Try these steps:')).toBeInTheDocument();
        expect(within(chat).queryByText(/could not be loaded/)).not.toBeInTheDocument();
        expect(within(chat).queryByRole('button', { name: 'Show older messages' })).not.toBeInTheDocument();
      });

      it('one press brings the older messages even when a whole page of messages was stored since (in another tab): that page is passed over, and nothing newer comes in above', { timeout: 30_000 }, async () => {
        const draft = ticketDraft();
        const stored = longConversation(draft);
        const calls = stubStoredConversation(draft, stored);
        const user = userEvent.setup();
        renderWithProviders(<TechnicianHarness user={CLIENT} />);

        const chat = await screen.findByRole('log', { name: 'Ticket chat' });
        await within(chat).findByRole('group', { name: 'Answers' });
        stored.push(...Array.from({ length: 31 }, (_, index) => ({ ...personSaid(`elsewhere-${index}`, `Said elsewhere ${index}`), timeStamp: at(50 + index) })));

        await user.click(within(chat).getByRole('button', { name: 'Show older messages' }));
        expect(await within(chat).findByText('Said 1')).toBeInTheDocument();
        expect(shownConversation(chat)).toEqual(EXPECTED);
        expect(within(chat).queryByText(/Said elsewhere/)).not.toBeInTheDocument();
        expect(calls.filter((call) => call.url.startsWith('/db/getMessages')).map((call) => new URL(call.url, 'http://localhost').searchParams.get('page'))).toEqual(['1', '2', '3']);
      });
    });

    it('with no open draft the empty chat shows as before, and nothing else is read', { timeout: 20_000 }, async () => {
      const calls = stubFlow();
      renderWithProviders(<TechnicianHarness user={CLIENT} />);
      await waitFor(() => expect(calls.some((call) => call.url.startsWith('/psa/ticketDraft/open'))).toBe(true));
      expect(await screen.findByText(/Hi Casey, I am Jarvis\./)).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Your ticket' })).not.toBeInTheDocument();
      expect(calls.some((call) => call.url.startsWith('/db/getMessages'))).toBe(false);
    });
  });
});
