import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { TScoredBoard, TScoreSuggestion } from '@switchboard/contracts';

const SOURCE_LABELS: Record<TScoreSuggestion['source'], { label: string; color: string }> = {
  history: { label: 'History', color: 'teal' },
  psa: { label: 'PSA order', color: 'blue' },
  default: { label: 'Default', color: 'gray' },
};

function SuggestedValue({ label, value, source, explanation }: { label: string; value: number | string; source: TScoreSuggestion['source']; explanation: string }) {
  const badge = SOURCE_LABELS[source];
  return (
    <Stack gap={2} miw={140}>
      <Group gap={6} wrap="nowrap">
        <Text fw={600} aria-label={label}>
          {value}
        </Text>
        <Badge size="xs" variant="light" color={badge.color} title={`Source: ${badge.label}`}>
          {badge.label}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {explanation}
      </Text>
    </Stack>
  );
}

/** A-052's suggestions with where each number came from (issue #7: "say in the UI where each suggested number came from"). */
export function ScoreSuggestions({ scored, onApply, onDismiss }: { scored: TScoredBoard; onApply: () => void; onDismiss: () => void }) {
  const { history } = scored;
  const period = history.from && history.to ? ` from ${history.from.slice(0, 10)} to ${history.to.slice(0, 10)}` : '';
  return (
    <Stack component="section" aria-labelledby="suggestions-title" gap="sm">
      <Group justify="space-between">
        <Title order={4} id="suggestions-title">
          Suggested scores
        </Title>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={onDismiss}>
            Dismiss
          </Button>
          <Button size="xs" onClick={onApply}>
            Apply suggestions
          </Button>
        </Group>
      </Group>
      <Alert color={history.ticketCount === 0 ? 'yellow' : 'blue'} variant="light">
        {history.ticketCount === 0
          ? 'No closed tickets of this board are in the synchronized history yet, so every suggestion is the default. Sync tickets, then ask again.'
          : `Worked out from ${history.ticketCount.toLocaleString('en-US')} closed tickets of this board${period}, without any AI: priority mix, time spent and time to resolve per subtype.`}
      </Alert>
      <Table.ScrollContainer minWidth={760}>
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Subtype</Table.Th>
              <Table.Th scope="col">Priority score</Table.Th>
              <Table.Th scope="col">Subtype score</Table.Th>
              <Table.Th scope="col">SLA (hours)</Table.Th>
              <Table.Th scope="col">Tier</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {scored.suggestions.map((suggestion) => {
              const name = `${suggestion.typeName} / ${suggestion.subTypeName}`;
              return (
                <Table.Tr key={`${suggestion.typeId ?? suggestion.typeName}-${suggestion.subTypeId ?? suggestion.subTypeName}`}>
                  <Table.Th scope="row" fw={500} miw={150}>
                    <Text size="sm" fw={500}>
                      {name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {suggestion.ticketCount === 1 ? '1 closed ticket' : `${suggestion.ticketCount} closed tickets`}
                    </Text>
                  </Table.Th>
                  <Table.Td>
                    <SuggestedValue label={`Suggested priority score for ${name}`} {...suggestion.priorityScore} />
                  </Table.Td>
                  <Table.Td>
                    <SuggestedValue label={`Suggested subtype score for ${name}`} {...suggestion.subTypeScore} />
                  </Table.Td>
                  <Table.Td>
                    <SuggestedValue label={`Suggested SLA for ${name}`} {...suggestion.slaDeadLineInHours} />
                  </Table.Td>
                  <Table.Td>
                    <SuggestedValue label={`Suggested tier for ${name}`} {...suggestion.tier} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Title order={5}>Priority scores</Title>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs">
          <Table.Tbody>
            {scored.prioritySuggestions.map((entry) => (
              <Table.Tr key={entry.priorityId}>
                <Table.Th scope="row" fw={500}>
                  {entry.priority}
                </Table.Th>
                <Table.Td>
                  <SuggestedValue label={`Suggested score for ${entry.priority}`} {...entry.priorityScore} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
