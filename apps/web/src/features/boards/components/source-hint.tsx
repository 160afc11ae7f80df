import { Text } from '@mantine/core';

const SOURCE_HINTS = { history: 'From history', psa: 'From PSA order', default: 'Default' } as const;

/** Under an applied suggestion, where its number came from (issue #7); gone once the number is edited. */
export function SourceHint({ suggestion, current }: { suggestion: { value: number | string; source: keyof typeof SOURCE_HINTS; explanation: string } | undefined; current: number | string }) {
  if (!suggestion || suggestion.value !== current) return null;
  return (
    <Text component="span" display="block" size="xs" c="dimmed" title={suggestion.explanation} mt={2}>
      {SOURCE_HINTS[suggestion.source]}
    </Text>
  );
}
