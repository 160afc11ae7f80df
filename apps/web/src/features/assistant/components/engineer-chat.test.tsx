import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_AGENT_ID, MESSAGES } from '@switchboard/contracts';
import type { TAgent, TChatMessage, TConversation, TJarvisChatResponse } from '@switchboard/contracts';
import { formatWhen } from '../../../lib/format-when';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { resetAllStores } from '../../../lib/store-reset';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { assistantMessage, stubFetch } from '../test/assistant-fixtures';
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
});
