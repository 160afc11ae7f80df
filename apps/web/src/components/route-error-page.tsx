import { useEffect } from 'react';
import { Alert, Button, Container, Stack, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { CORE_MESSAGES } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../lib/api-client';
import { setMainLoading } from '../lib/loading-store';

/** Shown when a route's loader or component fails (a 404 from the router or the API says the page does not exist). */
export function RouteErrorPage() {
  const error = useRouteError();
  const isNotFound = (isRouteErrorResponse(error) && error.status === 404) || (isApiError(error) && error.status === 404);
  const title = isNotFound ? 'Page not found' : 'Something went wrong';
  useEffect(() => {
    // A sign-in on its way to the dashboard set the main loading flag; the dashboard that clears it did not come (review s29).
    setMainLoading(false);
    // useDocumentTitle's effect, without the session read it brings onto the sign-in pages' first load (issue #6 §5).
    const before = document.title;
    document.title = `${title} · Switchboard`;
    return () => {
      document.title = before;
    };
  }, [title]);
  return (
    <Container component="main" size="sm" py="xl">
      <Stack align="flex-start">
        <Title order={1}>{title}</Title>
        <Alert color="red" role="alert" w="100%">
          {isNotFound ? CORE_MESSAGES.pageNotFound : errorDetail(error)}
        </Alert>
        <Button onClick={() => window.location.reload()} variant="light">
          Reload the page
        </Button>
      </Stack>
    </Container>
  );
}
