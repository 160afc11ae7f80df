import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LLM_PROVIDER_MESSAGES, type TLlmProviderSettings } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { LlmProviderSettings } from './llm-provider-settings';

const MSP = 'northwind';
const NONE: TLlmProviderSettings = { isConfigured: false, provider: null, model: null, baseUrl: null, embeddingModel: null, keyHint: null, updatedAt: null };

/** A stand-in for the server's llm-provider routes: keeps what was saved, never answers the key. */
function stubApi(testAnswer = { ok: true, message: 'gpt-4o-mini answered in 412 ms.', latencyMs: 412 }) {
  let saved: TLlmProviderSettings = NONE;
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      calls.push({ url, method, body });
      const json = (payload: unknown, status = 200) => new Response(JSON.stringify(payload), { status });
      if (url === `/db/${MSP}/llm-provider/test`) return json(testAnswer);
      if (url !== `/db/${MSP}/llm-provider`) return json({}, 404);
      if (method === 'PUT' && body) {
        const apiKey = typeof body.apiKey === 'string' ? body.apiKey : null;
        saved = { isConfigured: true, provider: body.provider as 'openai', model: String(body.model), baseUrl: (body.baseUrl as string | null) ?? null, embeddingModel: (body.embeddingModel as string | null) ?? null, keyHint: apiKey ? `••••${apiKey.slice(-4)}` : saved.keyHint, updatedAt: '2026-11-27T03:00:00.000Z' };
      }
      if (method === 'DELETE') saved = NONE;
      return json(saved);
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

/** The form is started afresh after each save, so it is found again each time. */
const form = () => screen.getByRole('form', { name: 'AI model settings' });

describe('LlmProviderSettings', { timeout: 30_000 }, () => {
  it('asks for the model and key, saves them, then shows only the last four characters and keeps the key when left empty', async () => {
    const calls = stubApi();
    renderWithProviders(<LlmProviderSettings mspCustomDomain={MSP} />);
    expect(await screen.findByText(/No AI model is connected/)).toBeInTheDocument();
    expect(within(form()).getByRole('button', { name: 'Test' })).toBeDisabled();

    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(within(form()).getByText(LLM_PROVIDER_MESSAGES.modelRequired)).toBeInTheDocument();
    expect(within(form()).getByText(LLM_PROVIDER_MESSAGES.apiKeyRequired)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await userEvent.type(within(form()).getByRole('textbox', { name: /^Model/ }), 'gpt-4o-mini');
    await userEvent.type(within(form()).getByLabelText(/API key/), 'sk-live-secret-9xYz');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByText(/Jarvis uses/)).toHaveTextContent('Jarvis uses gpt-4o-mini (OpenAI or OpenAI-compatible (Azure OpenAI, Ollama, vLLM)), key ••••9xYz.'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ provider: 'openai', model: 'gpt-4o-mini', baseUrl: null, embeddingModel: null, apiKey: 'sk-live-secret-9xYz' });
    // The key is gone from the form: only its hint is shown.
    expect(within(form()).getByLabelText(/API key/)).toHaveValue('');
    expect(within(form()).getByLabelText(/API key/)).toHaveAttribute('placeholder', 'Leave empty to keep ••••9xYz');
    expect(document.body.textContent).not.toContain('sk-live-secret');

    await userEvent.clear(within(form()).getByRole('textbox', { name: /^Model/ }));
    await userEvent.type(within(form()).getByRole('textbox', { name: /^Model/ }), 'gpt-4o');
    await userEvent.type(within(form()).getByRole('textbox', { name: /Embedding model/ }), 'text-embedding-3-small');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'PUT')[1]?.body).toEqual({ provider: 'openai', model: 'gpt-4o', baseUrl: null, embeddingModel: 'text-embedding-3-small' });
    // Claude has no embeddings: the field is not offered.
    await userEvent.click(within(form()).getByRole('radio', { name: 'Claude' }));
    expect(within(form()).queryByRole('textbox', { name: /Embedding model/ })).not.toBeInTheDocument();
  });

  // Security review: the server now asks for the key again when the base URL changes (the stored key only goes
  // to the address it was saved for); the form said "Leave empty to keep" and got a 400 for it.
  it('asks for the key again when the base URL changes, and keeps it for the same address', async () => {
    const calls = stubApi();
    renderWithProviders(<LlmProviderSettings mspCustomDomain={MSP} />);
    await screen.findByText(/No AI model is connected/);
    await userEvent.type(within(form()).getByRole('textbox', { name: /^Model/ }), 'llama3');
    await userEvent.type(within(form()).getByLabelText(/API key/), 'sk-local-9xYz');
    await userEvent.type(within(form()).getByRole('textbox', { name: /Base URL/ }), 'https://ollama.example.com/v1');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form()).getByLabelText(/API key/)).toHaveAttribute('placeholder', 'Leave empty to keep ••••9xYz'));

    const baseUrl = within(form()).getByRole('textbox', { name: /Base URL/ });
    await userEvent.clear(baseUrl);
    await userEvent.type(baseUrl, 'https://elsewhere.example.com/v1');
    expect(within(form()).getByLabelText(/API key/)).toHaveAttribute('placeholder', 'Paste the API key');
    expect(within(form()).getByLabelText(/API key/)).toBeRequired();
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(within(form()).getByText(LLM_PROVIDER_MESSAGES.apiKeyRequiredForNewAddress)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);

    // The saved address written with a trailing slash is the same address: the key is kept.
    await userEvent.clear(baseUrl);
    await userEvent.type(baseUrl, 'https://OLLAMA.example.com/v1/');
    expect(within(form()).getByLabelText(/API key/)).toHaveAttribute('placeholder', 'Leave empty to keep ••••9xYz');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'PUT')[1]?.body).not.toHaveProperty('apiKey');
  });

  // Review finding: Test called the saved model while the form showed other, unsaved settings, so "The model answered"
  // said nothing of what was typed.
  it('offers Test only for the saved settings: while the form differs it is disabled and says to save first', async () => {
    const calls = stubApi();
    renderWithProviders(<LlmProviderSettings mspCustomDomain={MSP} />);
    await screen.findByText(/No AI model is connected/);
    await userEvent.type(within(form()).getByRole('textbox', { name: /^Model/ }), 'gpt-4o-mini');
    await userEvent.type(within(form()).getByLabelText(/API key/), 'sk-live-secret-9xYz');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form()).getByRole('button', { name: 'Test' })).toBeEnabled());
    expect(within(form()).queryByText(LLM_PROVIDER_MESSAGES.saveToTest)).not.toBeInTheDocument();

    const model = () => within(form()).getByRole('textbox', { name: /^Model/ });
    await userEvent.type(model(), '-2');
    expect(within(form()).getByRole('button', { name: 'Test' })).toBeDisabled();
    expect(within(form()).getByText(LLM_PROVIDER_MESSAGES.saveToTest)).toBeVisible();
    await userEvent.type(model(), '{Backspace}{Backspace}');
    expect(within(form()).getByRole('button', { name: 'Test' })).toBeEnabled();

    await userEvent.type(within(form()).getByLabelText(/API key/), 'sk-new-key-1234');
    expect(within(form()).getByRole('button', { name: 'Test' })).toBeDisabled();
    await userEvent.clear(within(form()).getByLabelText(/API key/));
    await userEvent.type(within(form()).getByRole('textbox', { name: /Base URL/ }), 'https://models.example.com/v1');
    expect(within(form()).getByRole('button', { name: 'Test' })).toBeDisabled();
    await userEvent.clear(within(form()).getByRole('textbox', { name: /Base URL/ }));
    await userEvent.click(within(form()).getByRole('radio', { name: 'Claude' }));
    expect(within(form()).getByRole('button', { name: 'Test' })).toBeDisabled();
    await userEvent.click(within(form()).getByRole('radio', { name: 'OpenAI' }));
    await userEvent.type(within(form()).getByRole('textbox', { name: /Embedding model/ }), 'nomic-embed-text');
    expect(within(form()).getByRole('button', { name: 'Test' })).toBeDisabled();
    expect(calls.some((call) => call.url.endsWith('/test'))).toBe(false);

    // Saved: Test is for these settings now.
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form()).getByRole('button', { name: 'Test' })).toBeEnabled());
    await userEvent.click(within(form()).getByRole('button', { name: 'Test' }));
    expect(await within(form()).findByRole('status')).toHaveTextContent('The model answered');
  });

  it('shows the Test result, and removes the model only after the confirmation', async () => {
    const calls = stubApi({ ok: false, message: 'The language model service refused the request (HTTP 401).', latencyMs: 80 });
    renderWithProviders(<LlmProviderSettings mspCustomDomain={MSP} requestedProvider="anthropic" />);
    await screen.findByRole('form', { name: 'AI model settings' });
    expect(within(form()).getByText('Anthropic Claude')).toBeInTheDocument();
    await userEvent.type(within(form()).getByRole('textbox', { name: /^Model/ }), 'claude-3-5-haiku-latest');
    await userEvent.type(within(form()).getByLabelText(/API key/), 'sk-ant-1234');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form()).getByRole('button', { name: 'Test' })).toBeEnabled());
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({ provider: 'anthropic' });

    await userEvent.click(within(form()).getByRole('button', { name: 'Test' }));
    const result = await within(form()).findByRole('status');
    expect(result).toHaveTextContent('The model did not answer');
    expect(result).toHaveTextContent('The language model service refused the request (HTTP 401).');

    await userEvent.click(within(form()).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove AI model' }));
    await waitFor(() => expect(screen.getByText(/No AI model is connected/)).toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});
