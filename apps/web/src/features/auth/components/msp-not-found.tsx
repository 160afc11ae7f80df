import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { AuthLayout } from './auth-layout';

/** Shown for a one-segment path that is not any MSP's custom domain. */
export function MspNotFound({ customDomain }: { customDomain: string }) {
  return (
    <AuthLayout title="Service provider not found">
      <Stack>
        <Text>
          There is no service provider at <b>/{customDomain}</b>. Check the address your provider gave you.
        </Text>
        <Anchor component={Link} to="/auth/login">
          Go to the general sign-in page
        </Anchor>
        <Anchor component={Link} to="/msp/signup">
          Sign up your MSP
        </Anchor>
      </Stack>
    </AuthLayout>
  );
}
