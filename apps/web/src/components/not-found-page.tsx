import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';

export function NotFoundPage() {
  return (
    <Container component="main" size="sm" py="xl">
      <Stack align="flex-start">
        <Title order={1}>404</Title>
        <Text>{CORE_MESSAGES.pageNotFound}</Text>
        <Button component={Link} to="/auth/login" variant="light">
          Go to sign in
        </Button>
      </Stack>
    </Container>
  );
}
