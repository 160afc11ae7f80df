import { useEffect } from 'react';
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';
import { setMainLoading } from '../lib/loading-store';
import { useDocumentTitle } from '../lib/use-document-title';
import { useSession } from '../features/session/api/session-queries';
import { homePathFor } from '../features/session/session-guards';

/**
 * The 404 page. It clears the main loading flag (a sign-in sent to an unknown `returnTo` set it, and only the
 * dashboard cleared it: review s29), and leads a signed-in user back to their dashboard rather than to a sign-in.
 */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  useEffect(() => setMainLoading(false), []);
  const session = useSession();
  const user = session.data?.authenticated === true ? session.data.user : null;
  return (
    <Container component="main" size="sm" py="xl">
      <Stack align="flex-start">
        <Title order={1}>404</Title>
        <Text>{CORE_MESSAGES.pageNotFound}</Text>
        {/* Nothing until the session is known, so a signed-in user is not shown "Go to sign in" first. */}
        {session.isPending ? null : (
          <Button component={Link} to={user === null ? '/auth/login' : homePathFor(user)} variant="light">
            {user === null ? 'Go to sign in' : 'Back to your dashboard'}
          </Button>
        )}
      </Stack>
    </Container>
  );
}
