import { useState } from 'react';
import { Badge, Card, Code, Container, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useOutbox } from '../api/auth-queries';
import { FormError } from '../components/form-error';
import '../../../app/styles/mantine-extra';
import { errorDetail } from '../../../lib/api-client';

/** The first line that is exactly six digits: the 2FA or reset code of a captured mail. */
function findCode(text: string): string | null {
  return text.split(/\r?\n/).map((line) => line.trim()).find((line) => /^\d{6}$/.test(line)) ?? null;
}

/**
 * `/dev/outbox` (not in production builds' server): mail captured instead of sent, so a person
 * running `npm start` can read their sign-in and reset codes.
 */
export function DevOutboxPage() {
  const [search, setSearch] = useState('');
  const [to] = useDebouncedValue(search.trim().toLowerCase(), 300);
  const outbox = useOutbox(to);

  return (
    <Container size="md" py="xl">
      <Stack>
        <Title order={2}>Dev outbox</Title>
        <Text c="dimmed" size="sm">
          Mail the server would have sent. Newest first; refreshes every few seconds.
        </Text>
        <TextInput
          label="Recipient email"
          placeholder="All recipients"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        {outbox.isError ? <FormError message={errorDetail(outbox.error)} /> : null}
        {outbox.data?.items.length === 0 ? <Text>No mail yet.</Text> : null}
        {outbox.data?.items.map((mail) => {
          const code = findCode(mail.text);
          return (
            <Card key={mail.id} withBorder>
              <Stack gap="xs">
                <Group justify="space-between">
                  <Text fw={600}>{mail.subject}</Text>
                  {code ? (
                    <Badge size="lg" variant="light" aria-label={`Code ${code}`}>
                      {code}
                    </Badge>
                  ) : null}
                </Group>
                <Text size="sm" c="dimmed">
                  To {mail.to} · {new Date(mail.createdAt).toLocaleString()}
                </Text>
                <Code block>{mail.text}</Code>
              </Stack>
            </Card>
          );
        })}
      </Stack>
    </Container>
  );
}
