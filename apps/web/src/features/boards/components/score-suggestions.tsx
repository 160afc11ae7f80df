import { Alert, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { TScoredBoard, TScoreSuggestion } from '@switchboard/contracts';
import { sourceLabel } from './source-hint';

const SOURCE_COLORS: Record<TScoreSuggestion['source'], string> = { history: 'teal', psa: 'blue', llm: 'violet', default: 'gray' };

function SuggestedValue({ label, value, source, explanation, badge }: { label: string; value: number | string; source: TScoreSuggestion['source']; explanation: string; badge: string }) {
  return (
    <Stack gap={2} miw={140}>
      <Group gap={6} wrap="wrap">
        <Text fw={600} aria-label={label}>
          {value}
        </Text>
        {/* A model's name can be long: the badge wraps rather than cut it to "suggested by gpt-…". */}
        <Badge size="xs" variant="light" color={SOURCE_COLORS[source]} title={`Source: ${badge}`} tt="none" h="auto" py={2} styles={{ label: { overflow: 'visible', whiteSpace: 'normal', textOverflow: 'clip' } }}>
          {badge}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {explanation}
      </Text>
    </Stack>
  );
}

/** What the AI model did for this answer, or null when the MSP has none. */
function aiNotice(ai: TScoredBoard['ai']): { color: string; text: string } | null {
  if (!ai) return null;
  if (ai.fallbackReason) return { color: 'yellow', text: `The AI model (${ai.model}) could not help this time: ${ai.fallbackReason} The numbers history could not support keep their defaults.` };
  if (ai.asked === 0) return { color: 'blue', text: `Every subtype has enough history, so the AI model (${ai.model}) was not asked.` };
  return { color: 'violet', text: `${ai.model} suggested the numbers history could not support for ${ai.applied === 1 ? '1 subtype' : `${ai.applied} subtypes`}; check them before you apply.` };
}

/** A-052's suggestions with where each number came from (issue #7: "say in the UI where each suggested number came from"). */
export function ScoreSuggestions({ scored, onApply, onDismiss }: { scored: TScoredBoard; onApply: () => void; onDismiss: () => void }) {
  const { history } = scored;
  const model = scored.ai?.model ?? null;
  const ai = aiNotice(scored.ai);
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
          : `Worked out from ${history.ticketCount.toLocaleString('en-US')} closed tickets of this board${period}: priority mix, time spent and time to resolve per subtype.`}
      </Alert>
      {ai ? (
        <Alert color={ai.color} variant="light">
          {ai.text}
        </Alert>
      ) : null}
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
              const badge = (source: TScoreSuggestion['source']) => sourceLabel(source, { ticketCount: suggestion.ticketCount, model });
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
                    <SuggestedValue label={`Suggested priority score for ${name}`} {...suggestion.priorityScore} badge={badge(suggestion.priorityScore.source)} />
                  </Table.Td>
                  <Table.Td>
                    <SuggestedValue label={`Suggested subtype score for ${name}`} {...suggestion.subTypeScore} badge={badge(suggestion.subTypeScore.source)} />
                  </Table.Td>
                  <Table.Td>
                    <SuggestedValue label={`Suggested SLA for ${name}`} {...suggestion.slaDeadLineInHours} badge={badge(suggestion.slaDeadLineInHours.source)} />
                  </Table.Td>
                  <Table.Td>
                    <SuggestedValue label={`Suggested tier for ${name}`} {...suggestion.tier} badge={badge(suggestion.tier.source)} />
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
                  <SuggestedValue label={`Suggested score for ${entry.priority}`} {...entry.priorityScore} badge={sourceLabel(entry.priorityScore.source, { ticketCount: 0, model })} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
