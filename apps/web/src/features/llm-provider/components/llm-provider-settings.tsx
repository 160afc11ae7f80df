import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Group, Loader, PasswordInput, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { LLM_DEFAULT_EMBEDDING_MODEL, LLM_DEFAULT_MODELS, LLM_PROVIDER_LABELS, LLM_PROVIDER_MESSAGES, isSameLlmBaseUrl, type TLlmProviderKind, type TLlmProviderSettings, type TLlmProviderTestResult } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { ReadableBadge } from '../../../components/readable-badge';
import { useLlmProvider, useRemoveLlmProvider, useSaveLlmProvider, useTestLlmProvider } from '../api/llm-provider-queries';
// The API key field's stylesheets (PasswordInput and its show/hide toggle) load with this screen.
import '../../auth/components/password-input-styles';

/** The catalogue's card names for the two providers. */
export const LLM_CARD_PROVIDER: Record<string, TLlmProviderKind> = { OpenAI: 'openai', Claude: 'anthropic' };

type TFieldErrors = Partial<Record<'model' | 'apiKey' | 'baseUrl' | 'embeddingModel', string>>;

function errorDetail(error: unknown): string {
  return isApiError(error) ? error.detail : 'Something went wrong. Try again.';
}

/** The server's field problems, by field (it answers `invalidParams` with the field's name). */
function fieldErrorsOf(error: unknown): TFieldErrors {
  if (!isApiError(error)) return {};
  const errors: TFieldErrors = {};
  for (const param of error.invalidParams) {
    if (param.name === 'model' || param.name === 'apiKey' || param.name === 'baseUrl' || param.name === 'embeddingModel') errors[param.name] = param.reason;
  }
  return errors;
}

function StatusLine({ settings }: { settings: TLlmProviderSettings }) {
  if (!settings.isConfigured || !settings.provider) {
    return (
      <Text size="sm" c="dimmed">
        No AI model is connected. Jarvis answers from your knowledge base and past ticket resolutions, and works offline.
      </Text>
    );
  }
  return (
    <Text size="sm">
      Jarvis uses <strong>{settings.model}</strong> ({LLM_PROVIDER_LABELS[settings.provider]}), key {settings.keyHint}. When the model is slow or fails, the
      knowledge-base engine answers instead.
      {settings.embeddingModel ? <> Documents and past resolutions are also found by meaning with {settings.embeddingModel}.</> : null}
    </Text>
  );
}

type TLlmProviderSettingsProps = {
  mspCustomDomain: string;
  /** A provider chosen from the catalogue's OpenAI or Claude card. */
  requestedProvider?: TLlmProviderKind | null;
};

/**
 * Issue #9 / decision 023: the MSP's AI model for Jarvis — provider, model, API key (never shown back,
 * only its last four characters), optional base URL; Test and Remove.
 */
export function LlmProviderSettings({ mspCustomDomain, requestedProvider = null }: TLlmProviderSettingsProps) {
  const query = useLlmProvider(mspCustomDomain);
  const settings = query.data;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="llm-provider-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h4" id="llm-provider-title">
            AI model for Jarvis
          </Title>
          {settings ? settings.isConfigured ? <ReadableBadge color="green">Connected</ReadableBadge> : <ReadableBadge color="gray">Not connected</ReadableBadge> : null}
        </Group>
        {query.isPending ? <Loader size="sm" aria-label="Loading the AI model settings" /> : null}
        {query.isError ? (
          <Alert color="red" title="The AI model settings could not be loaded">
            {errorDetail(query.error)}
          </Alert>
        ) : null}
        {settings ? (
          <>
            <StatusLine settings={settings} />
            {/* A new answer from the server, or a newly chosen card, starts the form afresh. */}
            <LlmProviderForm key={`${settings.updatedAt ?? 'none'}:${requestedProvider ?? ''}`} mspCustomDomain={mspCustomDomain} settings={settings} requestedProvider={requestedProvider} />
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

function LlmProviderForm({ mspCustomDomain, settings, requestedProvider }: { mspCustomDomain: string; settings: TLlmProviderSettings; requestedProvider: TLlmProviderKind | null }) {
  const save = useSaveLlmProvider(mspCustomDomain);
  const remove = useRemoveLlmProvider(mspCustomDomain);
  const test = useTestLlmProvider(mspCustomDomain);
  const [provider, setProvider] = useState<TLlmProviderKind>(requestedProvider ?? settings.provider ?? 'openai');
  const [model, setModel] = useState(settings.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl ?? '');
  const [embeddingModel, setEmbeddingModel] = useState(settings.embeddingModel ?? '');
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [testResult, setTestResult] = useState<TLlmProviderTestResult | null>(null);
  const isSameProvider = settings.isConfigured && settings.provider === provider;
  // The saved key is only ever sent to the address it was saved for: a new base URL needs it again, as the server says.
  const keepsKey = isSameProvider && isSameLlmBaseUrl(settings.baseUrl, baseUrl);
  // Test calls the saved model (the server reads the stored settings), so it is offered only while the form shows them.
  const isUnsaved =
    settings.isConfigured &&
    (!isSameProvider ||
      model.trim() !== (settings.model ?? '') ||
      apiKey.trim() !== '' ||
      baseUrl.trim() !== (settings.baseUrl ?? '') ||
      (provider === 'openai' && embeddingModel.trim() !== (settings.embeddingModel ?? '')));

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const next: TFieldErrors = {};
    if (model.trim() === '') next.model = LLM_PROVIDER_MESSAGES.modelRequired;
    if (apiKey.trim() === '' && !keepsKey) next.apiKey = isSameProvider ? LLM_PROVIDER_MESSAGES.apiKeyRequiredForNewAddress : LLM_PROVIDER_MESSAGES.apiKeyRequired;
    if (baseUrl.trim() !== '' && !/^https?:\/\/\S+$/i.test(baseUrl.trim())) next.baseUrl = LLM_PROVIDER_MESSAGES.baseUrlInvalid;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setTestResult(null);
    save.mutate(
      {
        provider,
        model: model.trim(),
        baseUrl: baseUrl.trim() === '' ? null : baseUrl.trim(),
        // Only an OpenAI-compatible API has embeddings; Claude's settings never send one.
        embeddingModel: provider === 'openai' && embeddingModel.trim() !== '' ? embeddingModel.trim() : null,
        ...(apiKey.trim() === '' ? {} : { apiKey: apiKey.trim() }),
      },
      {
        onSuccess: () => notifications.show({ color: 'green', title: LLM_PROVIDER_MESSAGES.saved, message: 'Use Test to check that it answers.' }),
        onError: (error) => setErrors(fieldErrorsOf(error)),
      },
    );
  }

  function handleTest() {
    setTestResult(null);
    test.mutate(undefined, { onSuccess: setTestResult, onError: (error) => setTestResult({ ok: false, message: errorDetail(error), latencyMs: 0 }) });
  }

  function handleRemove() {
    modals.openConfirmModal({
      title: 'Remove the AI model?',
      children: <Text size="sm">Jarvis will answer from your knowledge base and past resolutions only. The saved API key is deleted.</Text>,
      labels: { confirm: 'Remove AI model', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(undefined, {
          onSuccess: () => notifications.show({ color: 'green', title: LLM_PROVIDER_MESSAGES.removed, message: '' }),
          onError: (error) => notifications.show({ color: 'red', title: 'The AI model could not be removed', message: errorDetail(error) }),
        }),
    });
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="AI model settings">
      <Stack gap="sm" maw={560}>
        <div>
          <Text size="sm" fw={500} id="llm-provider-label" mb={4}>
            Provider
          </Text>
          <SegmentedControl
            aria-labelledby="llm-provider-label"
            fullWidth
            value={provider}
            onChange={(value) => setProvider(value === 'anthropic' ? 'anthropic' : 'openai')}
            data={[
              { value: 'openai', label: 'OpenAI' },
              { value: 'anthropic', label: 'Claude' },
            ]}
          />
          <Text size="xs" c="dimmed" mt={4}>
            {LLM_PROVIDER_LABELS[provider]}
          </Text>
        </div>
        <TextInput label="Model" required placeholder={LLM_DEFAULT_MODELS[provider]} value={model} onChange={(event) => setModel(event.currentTarget.value)} error={errors.model} maxLength={200} />
        <PasswordInput
          label="API key"
          required={!keepsKey}
          autoComplete="off"
          placeholder={keepsKey && settings.keyHint ? `Leave empty to keep ${settings.keyHint}` : 'Paste the API key'}
          description="Stored encrypted and never shown again."
          value={apiKey}
          onChange={(event) => setApiKey(event.currentTarget.value)}
          error={errors.apiKey}
          maxLength={500}
        />
        <TextInput
          label="Base URL (optional)"
          placeholder={provider === 'openai' ? 'https://api.openai.com/v1' : 'https://api.anthropic.com'}
          description="Leave empty for the provider's own API. For Azure OpenAI, Ollama or vLLM, their OpenAI-compatible address."
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.currentTarget.value)}
          error={errors.baseUrl}
          maxLength={300}
        />
        {provider === 'openai' ? (
          <TextInput
            label="Embedding model (optional)"
            placeholder={LLM_DEFAULT_EMBEDDING_MODEL}
            description="With one, Jarvis also finds documents and past resolutions by meaning, not only by their words. Ollama: for example nomic-embed-text."
            value={embeddingModel}
            onChange={(event) => setEmbeddingModel(event.currentTarget.value)}
            error={errors.embeddingModel}
            maxLength={200}
          />
        ) : null}
        {save.isError && Object.keys(fieldErrorsOf(save.error)).length === 0 ? (
          <Alert color="red" title="The AI model could not be saved">
            {errorDetail(save.error)}
          </Alert>
        ) : null}
        {testResult ? (
          <Alert color={testResult.ok ? 'green' : 'red'} title={testResult.ok ? 'The model answered' : 'The model did not answer'} role="status">
            {testResult.message}
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
          <Button variant="default" onClick={handleTest} loading={test.isPending} disabled={!settings.isConfigured || isUnsaved} aria-describedby={isUnsaved ? 'llm-provider-save-to-test' : undefined}>
            Test
          </Button>
          {settings.isConfigured ? (
            <Button variant="subtle" color="red" onClick={handleRemove} loading={remove.isPending}>
              Remove
            </Button>
          ) : null}
        </Group>
        {isUnsaved ? (
          <Text size="sm" c="dimmed" id="llm-provider-save-to-test">
            {LLM_PROVIDER_MESSAGES.saveToTest}
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}
