import { Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useSessionUser } from '../../session/api/session-queries';
import { AuthLayout } from '../components/auth-layout';

/** `/public`: the public area's front door. */
export function PublicLandingPage() {
  const user = useSessionUser();
  const isPublicUser = user?.principal === 'account' && user.accountKind === 'public';
  return (
    <AuthLayout title="Switchboard help desk" subtitle="Get IT help from the Jarvis assistant and your service provider.">
      <Stack>
        {isPublicUser ? (
          <Button component={Link} to="/public/dashboard">
            Go to your dashboard
          </Button>
        ) : (
          <>
            <Button component={Link} to="/public/signup">
              Sign up
            </Button>
            <Button component={Link} to="/auth/login" variant="default">
              Sign in
            </Button>
          </>
        )}
        <Text size="sm" c="dimmed">
          Work for a managed service provider? <Link to="/msp/signup">Sign up your MSP</Link>.
        </Text>
      </Stack>
    </AuthLayout>
  );
}
