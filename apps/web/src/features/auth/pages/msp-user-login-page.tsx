import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';
import { AuthLayout } from '../components/auth-layout';
import { MspUserLoginFlow } from '../components/msp-user-login-flow';
import type { TLoginUserKind } from '../lib/user-kind';

function MspUserLogin({ userKind }: { userKind: TLoginUserKind }) {
  const other: TLoginUserKind = userKind === 'tech' ? 'client' : 'tech';
  return (
    <AuthLayout
      title={userKind === 'tech' ? 'Technician sign in' : 'Client sign in'}
      subtitle="Enter your email; we will find your service provider."
    >
      <MspUserLoginFlow userKind={userKind} />
      <Group justify="space-between">
        <Anchor component={Link} to={`/auth/login/${other}`} size="sm">
          {other === 'tech' ? 'I am a technician' : 'I am a client'}
        </Anchor>
        <Anchor component={Link} to="/auth/login" size="sm">
          Other ways to sign in
        </Anchor>
      </Group>
    </AuthLayout>
  );
}

/** `/auth/login/tech`. */
export function TechnicianLoginPage() {
  return <MspUserLogin userKind="tech" />;
}

/** `/auth/login/client`. */
export function ClientLoginPage() {
  return <MspUserLogin userKind="client" />;
}
