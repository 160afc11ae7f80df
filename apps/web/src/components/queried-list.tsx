import type { ReactNode } from 'react';
import { Alert, Box, Loader, Stack, Text } from '@mantine/core';
import { errorDetail } from '../lib/api-client';

/** What a list says while it loads, when it could not be loaded, when it is empty, and its own accessible name. */
export interface TQueriedListLabels {
  loading: string;
  loadFailed: string;
  empty: string;
  listLabel: string;
}

/**
 * A list read from the server inside a card: a spinner while it loads, the server's reason when it could not be loaded,
 * the empty sentence (a status), or the items as a plain list of `ListRow`s.
 */
export function QueriedList<T>({
  query,
  items,
  labels,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  items: readonly T[] | undefined;
  labels: TQueriedListLabels;
  children: (item: T, index: number) => ReactNode;
}) {
  return (
    <>
      {query.isPending ? <Loader size="sm" aria-label={labels.loading} /> : null}
      {query.isError ? (
        <Alert color="red" title={labels.loadFailed}>
          {errorDetail(query.error)}
        </Alert>
      ) : null}
      {items && items.length === 0 ? (
        <Text size="sm" role="status">
          {labels.empty}
        </Text>
      ) : null}
      {items && items.length > 0 ? (
        <Stack component="ul" aria-label={labels.listLabel} gap={0} p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item, index) => children(item, index))}
        </Stack>
      ) : null}
    </>
  );
}

/** One item of a `QueriedList`, named for screen readers, a line above every item but the first. */
export function ListRow({ label, isFirst, py, children }: { label: string; isFirst: boolean; py: 'xs' | 'sm'; children: ReactNode }) {
  return (
    <Box component="li" py={py} style={isFirst ? undefined : { borderTop: '1px solid var(--mantine-color-default-border)' }} aria-label={label}>
      {children}
    </Box>
  );
}
