import { Button, Center, Loader, Stack, Table, Text } from '@mantine/core';
import { Navigate } from 'react-router';
import { useLogout } from '../../session/api/logout';
import { useSession } from '../../session/api/session-queries';
import { AuthLayout } from '../components/auth-layout';
import '../../../app/styles/mantine-extra';

/** `/public/dashboard`: the signed-in public user's details and sign-out (which lands on /public). */
export function PublicDashboardPage() {
  const session = useSession();
  const logout = useLogout();

  if (session.isPending) {
    return (
      <Center mih="50vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  const user = session.data?.authenticated === true ? session.data.user : null;
  if (user === null) return <Navigate to="/public" replace />;

  const rows: Array<[string, string]> = [
    ['Name', `${user.firstName} ${user.lastName}`],
    ['Email', user.email],
    ['Phone', user.phoneNumber],
  ];
  return (
    <AuthLayout title={`Welcome, ${user.firstName}`}>
      <Stack>
        <Table variant="vertical" withTableBorder>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={120}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" c="dimmed">
          You are signed in as a public user.
        </Text>
        <Button variant="default" onClick={() => logout.mutate()} loading={logout.isPending}>
          Sign out
        </Button>
      </Stack>
    </AuthLayout>
  );
}
