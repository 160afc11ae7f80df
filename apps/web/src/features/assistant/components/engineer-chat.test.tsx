import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_AGENT_ID, MESSAGES } from '@switchboard/contracts';
import type { TAgent, TChatMessage, TChatStreamEvent, TConversation, TJarvisChatResponse, TSource } from '@switchboard/contracts';
import { formatWhen } from '../../../lib/format-when';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { resetAllStores } from '../../../lib/store-reset';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { assistantMessage, stubFetch } from '../test/assistant-fixtures';
import type { TCall } from '../test/assistant-fixtures';
import { useAssistantUiStore } from '../state/assistant-ui-store';
import { EngineerChat } from './engineer-chat';

afterEach(() => {
  vi.unstubAllGlobals();
  resetAllStores();
});

const TECHNICIAN = buildAdminTechnician({ firstName: 'Jordan' });
const AGENT: TAgent = {
  id: DEFAULT_AGENT_ID,
  agentName: 'Jarvis Troubleshooter',
  role: 'IT troubleshooting assistant',
  description: 'Helps technicians.',
  objectives: [],
  custom: false,
  deleted: false,
  defaultPrompt: null,
  examplePrompts: [],
  techId: null,
  userId: null,
  mspCustomDomain: null,
  previousAgentId: null,
  createdAt: '2026-11-23T16:00:00.000Z',
};
const CONVERSATION: TConversation = { id: '7c1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a99', userId: TECHNICIAN.id, agentID: DEFAULT_AGENT_ID, conversationName: 'Chat - 2026-11-27 12:48', customPrompt: null, timeStamp: '2026-11-27T12:48:00.000Z', deleted: false };
const INTRO = 'No AI model is configured, so this answer comes straight from your knowledge base and past resolutions.';
const ANSWER = `${INTRO}\n\n1. Verify identity by callback and unlock the account in ADUC. [1]`;

describe('EngineerChat', () => {
  it('says once where an answer comes from (a notice line above the chat repeated the answer\'s first sentence in other words)', { timeout: 20_000 }, async () => {
    const userMessage: TChatMessage = { ...assistantMessage('u1', 'How do I unlock an account in AD?', []), role: 'user', engine: null };
    const reply: TChatMessage = assistantMessage('a1', ANSWER, []);
    const stored: TChatMessage[] = [];
    stubFetch({
      'GET /db/getAgents': () => ({ status: 200, body: { agents: [AGENT] } }),
      'GET /db/conversations/getConversationsByAgentID': () => ({ status: 200, body: { conversations: stored.length > 0 ? [CONVERSATION] : [], page: 1, pageSize: 30, total: stored.length > 0 ? 1 : 0 } }),
      'POST /db/conversations/addConversation': () => ({ status: 201, body: { conversation: CONVERSATION } }),
      'GET /db/getMessages': () => ({ status: 200, body: { messages: stored, page: 1, pageSize: 30, total: stored.length } }),
      'POST /gpt/jarvisQandA': () => {
        stored.push(userMessage, reply);
        const response: TJarvisChatResponse = {
          content: JSON.stringify({ explanation: ANSWER, interactiveElements: [], type: 'markdown', engine: 'local', sources: [], notice: MESSAGES.assistant.localEngineNotice }),
          aiContent: ANSWER,
          messages: { id: reply.id },
          answer: { explanation: ANSWER, interactiveElements: [], type: 'markdown', engine: 'local', sources: [], notice: MESSAGES.assistant.localEngineNotice },
          userMessage,
          assistantMessage: reply,
        };
        return { status: 200, body: response };
      },
    });
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    const box = await screen.findByRole('textbox', { name: /message/i });
    await userEvent.type(box, 'How do I unlock an account in AD?{Enter}');
    expect(await screen.findByText(/unlock the account in ADUC/)).toBeInTheDocument();
    expect(screen.getAllByText(INTRO)).toHaveLength(1);
    expect(screen.queryByText(MESSAGES.assistant.localEngineNotice)).not.toBeInTheDocument();
  });

  it('names a default-named conversation with its time as every ticket screen shows it (History read "Chat - 2026-11-27 12:48", in UTC)', async () => {
    const named: TConversation = { ...CONVERSATION, id: '0b5f3c1e-4a52-4c1e-9d5e-6f7a8b9c0d1e', conversationName: 'Printer setup', timeStamp: '2026-11-26T09:05:00.000Z' };
    stubFetch({
      'GET /db/getAgents': () => ({ status: 200, body: { agents: [AGENT] } }),
      'GET /db/conversations/getConversationsByAgentID': () => ({ status: 200, body: { conversations: [named, CONVERSATION], page: 1, pageSize: 30, total: 2 } }),
      'GET /db/getMessages': () => ({ status: 200, body: { messages: [], page: 1, pageSize: 30, total: 0 } }),
    });
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const items = await within(list).findAllByRole('listitem');
    expect(items.map((item) => within(item).getAllByRole('button')[0]?.textContent)).toEqual([`Chat - ${formatWhen(CONVERSATION.timeStamp)}`, 'Printer setup']);
    expect(within(list).getByRole('button', { name: `Delete Chat - ${formatWhen(CONVERSATION.timeStamp)}` })).toBeInTheDocument();
  });

  it('shows suggested prompts in a conversation that has messages (they only showed in an empty one, so "Suggest prompts" seemed to do nothing)', { timeout: 20_000 }, async () => {
    const calls = stubConversations({
      'POST /gpt/message': () => ({ status: 200, body: { id: 'g1', choices: [{ index: 0, message: { role: 'assistant', content: 'prompts' } }], engine: 'local', prompts: SUGGESTED, notice: null } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await openConversation(user, CONVERSATION);
    expect(await screen.findByText(/unlock the account in ADUC/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Suggest prompts' }));
    const suggested = await screen.findByRole('group', { name: 'Suggested prompts' });
    expect(within(suggested).getAllByRole('button').map((button) => button.textContent)).toEqual(SUGGESTED);
    const asked = calls.filter((call) => call.url === '/gpt/message');
    expect(asked).toHaveLength(1);
    // A blank message box: the conversation's last question is the troubleshooting message it asks about (02 §5).
    expect(JSON.stringify(asked[0]?.body)).toContain('How do I unlock an account in AD?');
  });

  // Review s29 #6: "Suggest prompts" always sent the agent's description, ignored the message box and said "technician" to clients.
  it('suggests prompts about what is typed in the message box, worded for the user, and asks for input when there is none (R-256)', { timeout: 20_000 }, async () => {
    const calls = stubConversations({
      'GET /db/conversations/getConversationsByAgentID': () => ({ status: 200, body: { conversations: [], page: 1, pageSize: 30, total: 0 } }),
      'POST /gpt/message': () => ({ status: 200, body: { id: 'g1', choices: [{ index: 0, message: { role: 'assistant', content: 'prompts' } }], engine: 'local', prompts: SUGGESTED, notice: null } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={buildAdminTechnician({ userKind: 'client', roleName: 'Client', psaCompanyId: '19' })} />);
    await user.click(await screen.findByRole('button', { name: 'Suggest prompts' }));
    expect(await screen.findByText(MESSAGES.assistant.promptInputRequired)).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/gpt/message')).toHaveLength(0);
    await user.type(screen.getByRole('textbox', { name: /message/i }), 'Shared mailbox is read-only');
    await user.click(screen.getByRole('button', { name: 'Suggest prompts' }));
    expect(await screen.findByRole('group', { name: 'Suggested prompts' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.assistant.promptInputRequired)).not.toBeInTheDocument();
    const [asked] = calls.filter((call) => call.url === '/gpt/message').map((call) => (call.body as { message: string }).message);
    expect(asked).toContain('Shared mailbox is read-only');
    expect(asked).not.toMatch(/technician/i);
  });

  // Review s29 #2: "Oldest" reversed the page of the 30 newest; the list call now asks for the oldest first.
  it('asks the server for the oldest conversations first when "Oldest" is chosen', { timeout: 20_000 }, async () => {
    const calls = stubConversations({});
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await screen.findByRole('list', { name: 'Conversations' });
    const orders = () => calls.filter((call) => call.url.startsWith('/db/conversations/getConversationsByAgentID')).map((call) => new URL(call.url, 'http://localhost').searchParams.get('order'));
    expect(orders()).toEqual(['desc']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort conversations' }), 'Oldest');
    await waitFor(() => expect(orders()).toEqual(['desc', 'asc']));
  });

  // Review s29 #1: an agent deleted elsewhere showed under the default agent's name with its conversation still open.
  it('opens the default agent with no conversation when the chosen agent is gone from the list', { timeout: 20_000 }, async () => {
    const calls = stubConversations({});
    useAssistantUiStore.getState().openConversation('3a1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a55', CONVERSATION.id);
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await screen.findByRole('list', { name: 'Conversations' });
    await waitFor(() => expect(useAssistantUiStore.getState()).toMatchObject({ agentId: DEFAULT_AGENT_ID, conversationId: null }));
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveValue(DEFAULT_AGENT_ID);
    const chat = screen.getByRole('log', { name: `Chat with ${AGENT.agentName}` });
    expect(within(chat).queryByText('How do I unlock an account in AD?')).not.toBeInTheDocument();
    expect(calls.some((call) => call.url.includes(`conversationId=${CONVERSATION.id}`))).toBe(false);
  });

  it('says so when no prompts could be suggested and when a conversation could not be deleted (both failed silently)', { timeout: 20_000 }, async () => {
    stubConversations({
      'POST /gpt/message': () => problem(503, 'The AI model did not answer. Try again in a minute.'),
      'GET /db/conversations/deleteConversation': () => problem(500, 'The conversation could not be reached.'),
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await user.type(await screen.findByRole('textbox', { name: /message/i }), 'Outlook');
    await user.click(screen.getByRole('button', { name: 'Suggest prompts' }));
    expect(await screen.findByText('No prompts could be suggested. The AI model did not answer. Try again in a minute.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: `Delete Chat - ${formatWhen(CONVERSATION.timeStamp)}` }));
    expect(await screen.findByText('The conversation could not be deleted. The conversation could not be reached.')).toBeInTheDocument();
  });

  it('Stop keeps what was written so far, marked as stopped, with no error (it showed "Something went wrong" and dropped the answer)', { timeout: 20_000 }, async () => {
    stubConversations({});
    const fetchStub = vi.mocked(fetch);
    const answerAll = fetchStub.getMockImplementation();
    fetchStub.mockImplementation(async (input, init) => {
      if (input === '/gpt/jarvisQandA') return streamThatWaits(init?.signal ?? null, 'First, check whether the account is locked');
      if (!answerAll) throw new Error('no fetch stub');
      return answerAll(input, init);
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await openConversation(user, CONVERSATION);
    await user.type(screen.getByRole('textbox', { name: /message/i }), 'Why is the account locked?{Enter}');
    expect(await screen.findByText(/First, check whether the account is locked/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument());
    const chat = screen.getByRole('log', { name: `Chat with ${AGENT.agentName}` });
    expect(within(chat).getByText(/First, check whether the account is locked/)).toBeInTheDocument();
    expect(within(chat).getByText('Jarvis · stopped')).toBeInTheDocument();
    expect(within(chat).getByText('Why is the account locked?')).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.unexpectedError)).not.toBeInTheDocument();
  });

  // Review s28 fix #2: streamed, [S1] [S2] [S3] read [1] [2] [3] though S1 and S2 are passages of one article, and became
  // [1] [1] [2] when the answer was stored; stopped, the answer kept the wrong numbers and listed no sources.
  it('numbers a streamed answer by the source behind each citation, and a stopped one keeps those numbers with its Sources list', { timeout: 20_000 }, async () => {
    const lockouts: TSource = { kind: 'article', id: 'a1', title: 'Account lockouts — Find the source', reference: null };
    const passages: TSource[] = [lockouts, { ...lockouts, title: 'Account lockouts — Steps' }, { kind: 'document', id: 'd1', title: 'Unlocking accounts', reference: 'unlocking.pdf' }];
    stubConversations({});
    const fetchStub = vi.mocked(fetch);
    const answerAll = fetchStub.getMockImplementation();
    fetchStub.mockImplementation(async (input, init) => {
      if (input === '/gpt/jarvisQandA') {
        return streamEventsThenWait(init?.signal ?? null, [
          { event: 'sources', passages },
          { event: 'delta', text: 'Find the locking device [S1]. ' },
          { event: 'delta', text: 'Clear its saved password [S2]. ' },
          { event: 'delta', text: 'Then unlock the account [S3].' },
        ]);
      }
      if (!answerAll) throw new Error('no fetch stub');
      return answerAll(input, init);
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await openConversation(user, CONVERSATION);
    await user.type(screen.getByRole('textbox', { name: /message/i }), 'Why does the account keep locking?{Enter}');
    const chat = screen.getByRole('log', { name: `Chat with ${AGENT.agentName}` });
    await waitFor(() => expect(chat).toHaveTextContent('Find the locking device [1]. Clear its saved password [1]. Then unlock the account [2].'));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(await within(chat).findByText('Jarvis · stopped')).toBeInTheDocument();
    expect(chat).toHaveTextContent('Find the locking device [1]. Clear its saved password [1]. Then unlock the account [2].');
    expect(chat).toHaveTextContent('Sources: [1] Knowledge article: Account lockouts — Find the source [2] Document: Unlocking accounts');
  });

  it('leaves a question and its error in their conversation when another one is opened (they followed the user there)', { timeout: 20_000 }, async () => {
    stubConversations({ 'POST /gpt/jarvisQandA': () => problem(503, 'The AI model did not answer. Try again in a minute.') });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await openConversation(user, CONVERSATION);
    await user.type(screen.getByRole('textbox', { name: /message/i }), 'Why is the account locked?{Enter}');
    expect(await screen.findByText('The AI model did not answer. Try again in a minute.')).toBeInTheDocument();
    await openConversation(user, OTHER_CONVERSATION);
    expect(await screen.findByText('Printers are offline on floor 2')).toBeInTheDocument();
    expect(screen.queryByText('Why is the account locked?')).not.toBeInTheDocument();
    expect(screen.queryByText('The AI model did not answer. Try again in a minute.')).not.toBeInTheDocument();
  });

  it('a long conversation offers "Show older messages" above its newest 30, and the older ones come in above them (the button sat under the newest message)', { timeout: 20_000 }, async () => {
    const stored = Array.from({ length: 35 }, (_, index): TChatMessage => ({ ...assistantMessage(`m${index + 1}`, `Note ${index + 1}`, []), timeStamp: new Date(Date.UTC(2026, 10, 27, 12, 48, index)).toISOString() }));
    stubConversations({
      'GET /db/getMessages': (call) => {
        const page = Number(new URL(call.url, 'http://localhost').searchParams.get('page') ?? '1');
        const end = stored.length - (page - 1) * 30;
        return { status: 200, body: { messages: stored.slice(Math.max(0, end - 30), end), page, pageSize: 30, total: stored.length } };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await openConversation(user, CONVERSATION);
    const chat = screen.getByRole('log', { name: `Chat with ${AGENT.agentName}` });
    const shown = () => within(chat).getAllByText(/^Note \d+$/).map((element) => element.textContent);
    expect(await within(chat).findByText('Note 35')).toBeInTheDocument();
    expect(shown()).toEqual(stored.slice(5).map((message) => message.content));
    const older = within(chat).getByRole('button', { name: 'Show older messages' });
    expect(older.compareDocumentPosition(within(chat).getByText('Note 6')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(older);
    expect(await within(chat).findByText('Note 1')).toBeInTheDocument();
    expect(shown()).toEqual(stored.map((message) => message.content));
    expect(within(chat).queryByRole('button', { name: 'Show older messages' })).not.toBeInTheDocument();
  });

  it('after deleting the only conversation on the last page shows the page before (it said "No conversations with this agent yet." while 30 existed)', { timeout: 20_000 }, async () => {
    const stored = Array.from({ length: 31 }, (_, index): TConversation => ({ ...CONVERSATION, id: `c0000000-0000-4000-8000-${String(index).padStart(12, '0')}`, conversationName: `Case ${index + 1}`, timeStamp: new Date(Date.UTC(2026, 10, 27, 12, 0, 31 - index)).toISOString() }));
    stubFetch({
      'GET /db/getAgents': () => ({ status: 200, body: { agents: [AGENT] } }),
      'GET /db/conversations/getConversationsByAgentID': (call) => {
        const page = Number(new URL(call.url, 'http://localhost').searchParams.get('page') ?? '1');
        return { status: 200, body: { conversations: stored.slice((page - 1) * 30, page * 30), page, pageSize: 30, total: stored.length } };
      },
      'GET /db/conversations/deleteConversation': (call) => {
        const id = new URL(call.url, 'http://localhost').searchParams.get('conversationId');
        stored.splice(stored.findIndex((conversation) => conversation.id === id), 1);
        return { status: 200, body: { conversationId: id, deleted: true } };
      },
      'GET /db/getMessages': () => ({ status: 200, body: { messages: [], page: 1, pageSize: 30, total: 0 } }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await user.click(await screen.findByRole('button', { name: '2' }));
    const list = screen.getByRole('list', { name: 'Conversations' });
    await user.click(await within(list).findByRole('button', { name: 'Delete Case 31' }));
    expect(await within(list).findByRole('button', { name: 'Case 1' })).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')).toHaveLength(30);
    expect(screen.queryByText('No conversations with this agent yet.')).not.toBeInTheDocument();
  });

  it('starts another agent’s History on its first page and never shows the last agent’s conversations under it while it loads (page 2 and the list carried over)', { timeout: 20_000 }, async () => {
    const custom: TAgent = { ...AGENT, id: '3a1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a55', agentName: 'Mailbox helper', custom: true };
    const builtIns = Array.from({ length: 31 }, (_, index): TConversation => ({ ...CONVERSATION, id: `c0000000-0000-4000-8000-${String(index).padStart(12, '0')}`, conversationName: `Built-in case ${index + 1}`, timeStamp: new Date(Date.UTC(2026, 10, 27, 12, 0, 31 - index)).toISOString() }));
    let answerCustom: (() => void) | null = null;
    const requestedPages: string[] = [];
    stubFetch({
      'GET /db/getAgents': () => ({ status: 200, body: { agents: [AGENT, custom] } }),
      'GET /db/conversations/getConversationsByAgentID': (call) => {
        const query = new URL(call.url, 'http://localhost').searchParams;
        const page = Number(query.get('page') ?? '1');
        requestedPages.push(`${query.get('agentId')}:${page}`);
        return { status: 200, body: { conversations: builtIns.slice((page - 1) * 30, page * 30), page, pageSize: 30, total: builtIns.length } };
      },
      'GET /db/getMessages': () => ({ status: 200, body: { messages: [], page: 1, pageSize: 30, total: 0 } }),
    });
    const fetchStub = vi.mocked(fetch);
    const answerAll = fetchStub.getMockImplementation();
    fetchStub.mockImplementation(async (input, init) => {
      if (!answerAll) throw new Error('no fetch stub');
      if (typeof input === 'string' && input.includes(`agentId=${custom.id}`)) {
        requestedPages.push(`${custom.id}:${new URL(input, 'http://localhost').searchParams.get('page') ?? '1'}`);
        await new Promise<void>((resolve) => {
          answerCustom = resolve;
        });
        return new Response(JSON.stringify({ conversations: [{ ...CONVERSATION, agentID: custom.id, conversationName: 'Quota question' }], page: 1, pageSize: 30, total: 1 }), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      return answerAll(input, init);
    });
    const user = userEvent.setup();
    renderWithProviders(<EngineerChat user={TECHNICIAN} />);
    await user.click(await screen.findByRole('button', { name: '2' }));
    expect(await screen.findByRole('button', { name: 'Built-in case 31' })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Agent' }), custom.id);
    await waitFor(() => expect(answerCustom).not.toBeNull());
    expect(screen.queryByRole('button', { name: 'Built-in case 31' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Built-in case/ })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Loading conversations')).toBeInTheDocument();
    act(() => answerCustom?.());
    expect(await screen.findByRole('button', { name: 'Quota question' })).toBeInTheDocument();
    expect(requestedPages.filter((entry) => entry.startsWith(custom.id))).toEqual([`${custom.id}:1`]);
  });

  it('offers a client user History only: agents are a technician’s to create and edit (Create and Edit always failed with 403)', async () => {
    stubConversations({});
    renderWithProviders(<EngineerChat user={buildAdminTechnician({ userKind: 'client', roleName: 'Client', psaCompanyId: '19' })} />);
    expect(await screen.findByRole('list', { name: 'Conversations' })).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Create' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByText('Create')).not.toBeInTheDocument();
  });
});

const SUGGESTED = ['How do I unlock an AD account?', 'Why does Outlook keep asking for a password?', 'How do I reset MFA for a user?'];
const OTHER_CONVERSATION: TConversation = { ...CONVERSATION, id: '0b5f3c1e-4a52-4c1e-9d5e-6f7a8b9c0d1e', conversationName: 'Printer setup', timeStamp: '2026-11-26T09:05:00.000Z' };

function problem(status: number, detail: string) {
  return { status, body: { type: 'about:blank', title: 'Error', status, detail, code: status >= 500 ? 'internal' : 'bad_request', requestId: 'r' } };
}

/** Two conversations with stored messages (an AD question in one, a printer one in the other), plus `routes`. */
function stubConversations(routes: Record<string, (call: TCall) => { status: number; body: unknown }>) {
  const messagesOf = (conversationId: string): TChatMessage[] =>
    conversationId === CONVERSATION.id
      ? [{ ...assistantMessage('u1', 'How do I unlock an account in AD?', []), role: 'user', engine: null }, assistantMessage('a1', ANSWER, [])]
      : [{ ...assistantMessage('u2', 'Printers are offline on floor 2', []), conversationId, role: 'user', engine: null, timeStamp: '2026-11-26T09:05:00.000Z' }];
  return stubFetch({
    'GET /db/getAgents': () => ({ status: 200, body: { agents: [AGENT] } }),
    'GET /db/conversations/getConversationsByAgentID': () => ({ status: 200, body: { conversations: [CONVERSATION, OTHER_CONVERSATION], page: 1, pageSize: 30, total: 2 } }),
    'GET /db/getMessages': (call) => {
      const messages = messagesOf(new URL(call.url, 'http://localhost').searchParams.get('conversationId') ?? '');
      return { status: 200, body: { messages, page: 1, pageSize: 30, total: messages.length } };
    },
    ...routes,
  });
}

async function openConversation(user: ReturnType<typeof userEvent.setup>, conversation: TConversation) {
  const list = await screen.findByRole('list', { name: 'Conversations' });
  const name = conversation.conversationName === CONVERSATION.conversationName ? `Chat - ${formatWhen(conversation.timeStamp)}` : conversation.conversationName;
  await user.click(await within(list).findByRole('button', { name }));
}

/** A-096 as a stream that writes `text`, then waits until the request is aborted (as fetch's body does on abort). */
function streamThatWaits(signal: AbortSignal | null, text: string): Response {
  return streamEventsThenWait(signal, [{ event: 'delta', text }]);
}

/** A-096 as a stream that sends `events`, then waits until the request is aborted. */
function streamEventsThenWait(signal: AbortSignal | null, events: TChatStreamEvent[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(new TextEncoder().encode(`event: ${event.event}\ndata: ${JSON.stringify(event)}\n\n`));
      signal?.addEventListener('abort', () => controller.error(signal.reason));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}
