import { Text } from '@mantine/core';
import type { TScoreSuggestion } from '@switchboard/contracts';

export interface TSourceContext {
  /** Closed tickets of the subtype the number was worked out from. */
  ticketCount: number;
  /** The AI model that suggested it, when one did. */
  model: string | null;
}

/** Where a number came from, in the words the editor shows beside it (issue #7, decision 024). */
export function sourceLabel(source: TScoreSuggestion['source'], context: TSourceContext): string {
  switch (source) {
    case 'history':
      return context.ticketCount === 1 ? 'from 1 closed ticket' : `from ${context.ticketCount.toLocaleString('en-US')} closed tickets`;
    case 'psa':
      return 'PSA order';
    case 'llm':
      return `suggested by ${context.model ?? 'the AI model'}`;
    case 'default':
      return 'default';
  }
}

/** Under an applied suggestion, where its number came from (issue #7); gone once the number is edited. */
export function SourceHint({ suggestion, current, context }: { suggestion: { value: number | string; source: TScoreSuggestion['source']; explanation: string } | undefined; current: number | string; context: TSourceContext }) {
  if (!suggestion || suggestion.value !== current) return null;
  const label = sourceLabel(suggestion.source, context);
  return (
    <Text component="span" display="block" size="xs" c="dimmed" title={suggestion.explanation} mt={2}>
      {label.charAt(0).toUpperCase() + label.slice(1)}
    </Text>
  );
}
