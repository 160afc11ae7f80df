import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP, stubFetch } from '../../assistant/test/assistant-fixtures';
import { KnowledgeBase } from './knowledge-base';

afterEach(() => vi.unstubAllGlobals());

const INTRO = 'No AI model is configured, so this answer comes straight from your knowledge base and past resolutions.';

describe('KnowledgeBase "Ask"', () => {
  it('answers once, saying once where the answer comes from (the notice line repeated the answer\'s first sentence in other words)', { timeout: 20_000 }, async () => {
    const calls = stubFetch({
      'POST /docs/chat': () => ({
        status: 200,
        body: { documentMessage: `${INTRO}\n\n1. Reconnect FortiClient VPN. [1]\n\nSources:\n[1] Knowledge article: FortiClient VPN`, engine: 'local', sources: [], notice: MESSAGES.assistant.localEngineNotice },
      }),
    });
    renderWithProviders(<KnowledgeBase mspCustomDomain={MSP} />);
    await userEvent.type(screen.getByLabelText('Search'), 'vpn keeps disconnecting');
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const answer = await screen.findByLabelText('Answer from the documents');
    expect(await within(answer).findByText('Reconnect FortiClient VPN. [1]')).toBeInTheDocument();
    expect(within(answer).getByText(INTRO)).toBeInTheDocument();
    expect(within(answer).queryByText(MESSAGES.assistant.localEngineNotice)).not.toBeInTheDocument();
    expect(calls.find((call) => call.url.includes('/docs/chat'))?.body).toEqual({ id: null, documentMessage: 'vpn keeps disconnecting' });
  });
});
