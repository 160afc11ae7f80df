import type { ReactNode } from 'react';
import { Paper, Text, Title } from '@mantine/core';

/** The frame of a settings card on the Board screen: a section named by its heading (`id`), with a dimmed intro above its content. */
export function BoardCard({ id, title, intro, children }: { id: string; title: ReactNode; intro: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={id}>
      <Title order={4} id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {intro}
      </Text>
      {children}
    </Paper>
  );
}
