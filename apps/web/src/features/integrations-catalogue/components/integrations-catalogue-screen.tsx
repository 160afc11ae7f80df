import { useRef, useState } from 'react';
import { Alert, Button, Card, Group, Loader, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { CLIENT_CATALOGUE, MSP_CATALOGUE } from '@switchboard/contracts';
import type { TCatalogueCard, TLlmProviderKind } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { ReadableBadge } from '../../../components/readable-badge';
import { useCompanies } from '../../companies/api/companies-queries';
import { useClientIntegrations } from '../api/catalogue-queries';
import { LLM_CARD_PROVIDER, LlmProviderSettings } from '../../llm-provider/components/llm-provider-settings';
import { useLlmProvider } from '../../llm-provider/api/llm-provider-queries';
import { useIntegrationSummary } from '../../msp-integrations/api/msp-integrations-queries';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The PSA each PSA card stands for. */
const PSA_CARD_TYPE: Record<string, 'CONNECTWISE' | 'AUTOTASK'> = { ConnectWise: 'CONNECTWISE', Autotask: 'AUTOTASK' };

function CatalogueCard({ card, isConnected = false, onSetUp }: { card: TCatalogueCard; isConnected?: boolean; onSetUp?: (() => void) | undefined }) {
  return (
    <Card withBorder padding="md" component="article" aria-label={card.name}>
      <Group justify="space-between" mb="xs">
        <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
          {card.category}
        </Text>
        {isConnected ? (
          <ReadableBadge color="teal">Connected</ReadableBadge>
        ) : card.available ? (
          <ReadableBadge color="green">Available</ReadableBadge>
        ) : (
          <ReadableBadge color="gray">Coming soon</ReadableBadge>
        )}
      </Group>
      <Text fw={600}>{card.name}</Text>
      {card.available && onSetUp ? (
        <Button mt="sm" size="xs" variant={isConnected ? 'default' : 'filled'} onClick={onSetUp}>
          {isConnected ? 'Manage' : 'Set up'}
        </Button>
      ) : null}
    </Card>
  );
}

/**
 * 02 §2 / §3 integrations catalogue: the MSP cards, and the client cards of a chosen client
 * company. Available PSA cards lead to the integration screen (`onOpenIntegration`, when the user may open it);
 * the OpenAI and Claude cards to the AI model settings below them (`canManageAiModel`: mspIntegrations).
 */
export function IntegrationsCatalogueScreen({
  mspCustomDomain,
  onOpenIntegration,
  canManageAiModel = false,
}: {
  mspCustomDomain: string;
  onOpenIntegration?: (() => void) | undefined;
  canManageAiModel?: boolean;
}) {
  useDocumentTitle('Integrations');
  const [requestedProvider, setRequestedProvider] = useState<TLlmProviderKind | null>(null);
  const aiSettings = useRef<HTMLDivElement>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [clientId, setClientId] = useState<string | null>(null);
  const companies = useCompanies(mspCustomDomain, { page: 1, search: debouncedSearch.trim(), clientType: 'all' });
  const clientCards = useClientIntegrations(mspCustomDomain, clientId);
  const companyOptions = (companies.data?.items ?? []).map((company) => ({ value: company.id, label: company.name }));
  // What is set up already: the PSA connected (as the integration screen counts it) and Jarvis's AI model.
  const integration = useIntegrationSummary(mspCustomDomain);
  const aiModel = useLlmProvider(mspCustomDomain, canManageAiModel);
  const connectedPsa = integration.data?.isConfigured && integration.data.connectWiseManageIntegrator ? integration.data.psaType : null;
  const configuredAi = aiModel.data?.isConfigured ? aiModel.data.provider : null;

  return (
    <Stack component="section" aria-labelledby="integrations-title">
      <Title order={1} size="h2" id="integrations-title">
        Integrations
      </Title>
      <Title order={3} size="h4">
        Your MSP
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {MSP_CATALOGUE.map((card) => {
          const llmProvider = LLM_CARD_PROVIDER[card.name];
          const handleSetUpAi =
            llmProvider && canManageAiModel
              ? () => {
                  setRequestedProvider(llmProvider);
                  aiSettings.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                }
              : undefined;
          const isConnected = card.category === 'PSA' ? connectedPsa !== null && PSA_CARD_TYPE[card.name] === connectedPsa : llmProvider !== undefined && llmProvider === configuredAi;
          return <CatalogueCard key={card.name} card={card} isConnected={isConnected} onSetUp={card.category === 'PSA' ? onOpenIntegration : handleSetUpAi} />;
        })}
      </SimpleGrid>
      {canManageAiModel ? (
        <div ref={aiSettings}>
          <LlmProviderSettings mspCustomDomain={mspCustomDomain} requestedProvider={requestedProvider} />
        </div>
      ) : null}
      <Title order={3} size="h4">
        Client companies
      </Title>
      <Select
        label="Client company"
        placeholder="Choose a client company"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        data={companyOptions}
        value={clientId}
        onChange={setClientId}
        nothingFoundMessage={companies.isPending ? 'Loading…' : 'No company matches'}
        w={{ base: '100%', sm: 360 }}
      />
      {companies.isError ? (
        <Alert color="red" title="The client companies could not be loaded">
          {isApiError(companies.error) ? companies.error.detail : 'Try again.'}
        </Alert>
      ) : null}
      {clientId === null ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          {CLIENT_CATALOGUE.map((card) => (
            <CatalogueCard key={card.name} card={card} />
          ))}
        </SimpleGrid>
      ) : null}
      {clientCards.isPending && clientId !== null ? <Loader aria-label="Loading client integrations" /> : null}
      {clientCards.isError ? (
        <Alert color="red" title="The client's integrations could not be loaded">
          {isApiError(clientCards.error) ? clientCards.error.detail : 'Try again.'}
        </Alert>
      ) : null}
      {clientCards.data ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} aria-label={`Integrations of ${clientCards.data.companyName}`}>
          {clientCards.data.cards.map((card) => (
            <CatalogueCard key={card.name} card={card} />
          ))}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
