import { Alert, Button, Container, Stack, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { errorDetail, isApiError } from '../lib/api-client';
import { NotFoundPage } from './not-found-page';

/** Shown when a route's loader or component fails; a 404 from the router or the API shows the 404 page. */
export function RouteErrorPage() {
  const error = useRouteError();
  if ((isRouteErrorResponse(error) && error.status === 404) || (isApiError(error) && error.status === 404)) {
    return <NotFoundPage />;
  }
  const detail = errorDetail(error);
  return (
    <Container component="main" size="sm" py="xl">
      <Stack align="flex-start">
        <Title order={1}>Something went wrong</Title>
        <Alert color="red" role="alert" w="100%">
          {detail}
        </Alert>
        <Button onClick={() => window.location.reload()} variant="light">
          Reload the page
        </Button>
      </Stack>
    </Container>
  );
}
