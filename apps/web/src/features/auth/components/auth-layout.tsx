import type { ReactNode } from 'react';
import { Center, Container, Image, Paper, Stack, Text, Title } from '@mantine/core';

interface TAuthLayoutProps {
  title: string;
  subtitle?: string;
  logoUrl?: string | null;
  logoAlt?: string;
  children: ReactNode;
}

/** The centred card every sign-in, sign-up and reset page sits in. */
export function AuthLayout({ title, subtitle, logoUrl, logoAlt, children }: TAuthLayoutProps) {
  return (
    <Container size={480} py="xl">
      <Paper withBorder shadow="sm" p="xl" radius="md">
        <Stack gap="md">
          {logoUrl ? (
            <Center>
              <Image src={logoUrl} alt={logoAlt ?? ''} h={64} w="auto" fit="contain" />
            </Center>
          ) : null}
          <Stack gap={4}>
            <Title order={2}>{title}</Title>
            {subtitle ? <Text c="dimmed">{subtitle}</Text> : null}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
