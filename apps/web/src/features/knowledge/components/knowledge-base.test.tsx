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
      [`GET /db/${MSP}/knowledge/articles`]: () => ({ status: 200, body: { articles: [] } }),
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

const SSPR = { id: '3f1c2a9e-0000-4000-8000-000000000003', title: 'Self-service password reset (SSPR)', typeName: 'Accounts & Access', subTypeName: 'Password Reset' };
const PRINTER = { id: '3f1c2a9e-0000-4000-8000-000000000007', title: 'Printer shows offline', typeName: 'Hardware', subTypeName: 'Printer / Scanner' };
const LOOSE = { id: '3f1c2a9e-0000-4000-8000-000000000009', title: 'Office Wi-Fi names', typeName: null, subTypeName: null };

describe('KnowledgeBase articles', () => {
  function stubArticles() {
    return stubFetch({
      [`GET /db/${MSP}/knowledge/articles`]: () => ({ status: 200, body: { articles: [SSPR, PRINTER, LOOSE] } }),
      [`GET /db/${MSP}/knowledge/articles/${SSPR.id}`]: () => ({
        status: 200,
        body: { ...SSPR, body: '**Audience:** end users.\n\n### Register\n\n1. Open **aka.ms/sspr-setup** and sign in.', createdAt: '2026-11-01T00:00:00.000Z' },
      }),
      'POST /gpt/rag/search': () => ({
        status: 200,
        body: { ticketId: null, query: 'forgot password', results: [{ kind: 'article', id: SSPR.id, title: `${SSPR.title} — Register`, reference: null, snippet: 'Open aka.ms/sspr-setup', score: 0.9 }] },
      }),
    });
  }

  it('lists the articles under their categories and opens one to read whole, with its category', { timeout: 20_000 }, async () => {
    stubArticles();
    renderWithProviders(<KnowledgeBase mspCustomDomain={MSP} />);
    const accounts = await screen.findByRole('region', { name: 'Accounts & Access' });
    expect(within(accounts).getByRole('button', { name: SSPR.title })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Hardware' })).getByRole('button', { name: PRINTER.title })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Other' })).getByRole('button', { name: LOOSE.title })).toBeInTheDocument();

    await userEvent.click(within(accounts).getByRole('button', { name: SSPR.title }));
    const reader = await screen.findByRole('dialog', { name: SSPR.title });
    expect(await within(reader).findByRole('heading', { name: 'Register' })).toBeInTheDocument();
    expect(within(reader).getByText('aka.ms/sspr-setup')).toBeInTheDocument();
    expect(within(reader).getByText('Accounts & Access › Password Reset')).toBeInTheDocument();
    // Bug (axe sweep s28): the reader's X had no accessible name.
    expect(within(reader).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('opens an article a search found, and goes back to browsing', { timeout: 20_000 }, async () => {
    stubArticles();
    renderWithProviders(<KnowledgeBase mspCustomDomain={MSP} />);
    await userEvent.type(screen.getByLabelText('Search'), 'forgot password');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const results = await screen.findByRole('list', { name: 'Knowledge results' });
    expect(screen.queryByRole('region', { name: 'Hardware' })).not.toBeInTheDocument();
    await userEvent.click(within(results).getByRole('button', { name: `${SSPR.title} — Register` }));
    expect(await screen.findByRole('dialog', { name: SSPR.title })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Browse all articles' }));
    expect(await screen.findByRole('region', { name: 'Hardware' })).toBeInTheDocument();
  });
});

describe('KnowledgeBase search after an error (review s27: the same text again sent nothing)', () => {
  it('offers to try again, and the same search sent again is sent again', { timeout: 20_000 }, async () => {
    let failures = 2;
    const calls = stubFetch({
      [`GET /db/${MSP}/knowledge/articles`]: () => ({ status: 200, body: { articles: [] } }),
      'POST /gpt/rag/search': () =>
        failures-- > 0
          ? { status: 429, body: { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'Too many requests. Try again in a minute.', code: 'rate_limited', requestId: 'r' } }
          : { status: 200, body: { ticketId: null, query: 'vpn', results: [{ kind: 'article', id: SSPR.id, title: SSPR.title, reference: null, snippet: 'Open aka.ms/sspr-setup', score: 0.9 }] } },
    });
    renderWithProviders(<KnowledgeBase mspCustomDomain={MSP} />);
    await userEvent.type(screen.getByLabelText('Search'), 'forgot password');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Too many requests. Try again in a minute.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(calls.filter((call) => call.url.includes('/gpt/rag/search'))).toHaveLength(2));
    expect(await screen.findByText('Too many requests. Try again in a minute.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('list', { name: 'Knowledge results' })).toBeInTheDocument();
    expect(calls.filter((call) => call.url.includes('/gpt/rag/search'))).toHaveLength(3);
  });
});
