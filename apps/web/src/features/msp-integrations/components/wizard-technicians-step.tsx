import { useState } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Button, Checkbox, Group, Loader, NativeSelect, ScrollArea, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { MESSAGES, type TTierLevel } from '@switchboard/contracts';
import { psaErrorMessage } from '../psa-error-message';
import { useImportPsaMembers, usePsaMemberCandidates } from '../../employees/api/employees-queries';
import { TEAM_TIER_OPTIONS } from '../../../lib/tier-labels';
import { useRoles } from '../../roles/api/roles-queries';

type TChoice = { tierLevel: TTierLevel; roleId: string };

/** Step 2: PSA members imported as technicians, each with a tier (Tier1 by default) and a role (Technician by default). */
export function WizardTechniciansStep({ mspCustomDomain, onComplete, isCompleting }: { mspCustomDomain: string; onComplete: () => void; isCompleting: boolean }) {
  const candidates = usePsaMemberCandidates(mspCustomDomain);
  const roles = useRoles(mspCustomDomain);
  const importMembers = useImportPsaMembers(mspCustomDomain);
  const [chosen, setChosen] = useState<Record<string, TChoice>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [importedCount, setImportedCount] = useState(0);
  const defaultRoleId = roles.data?.find((role) => role.name === 'Technician')?.id ?? roles.data?.[0]?.id ?? '';
  const members = candidates.data ?? [];
  // On a phone the four columns scrolled sideways: tier and role then sit under the member's name, in the same row.
  const isNarrow = useMediaQuery('(max-width: 36em)') ?? false;

  function toggle(psaMemberId: string) {
    setChosen((current) => {
      const next = { ...current };
      if (next[psaMemberId]) delete next[psaMemberId];
      else next[psaMemberId] = { tierLevel: 'Tier1', roleId: defaultRoleId };
      return next;
    });
  }

  function update(psaMemberId: string, patch: Partial<TChoice>) {
    setChosen((current) => {
      const existing = current[psaMemberId];
      return existing ? { ...current, [psaMemberId]: { ...existing, ...patch } } : current;
    });
  }

  async function handleImport() {
    const selected = Object.entries(chosen);
    if (selected.length === 0) return setProblem(MESSAGES.employees.selectMembers);
    setProblem(null);
    try {
      const added = await importMembers.mutateAsync({
        members: selected.map(([psaMemberId, choice]) => ({ psaMemberId, tierLevel: choice.tierLevel, ...(choice.roleId ? { roleId: choice.roleId } : {}) })),
      });
      setImportedCount((count) => count + added.length);
      setChosen({});
    } catch (error) {
      setProblem(psaErrorMessage(error, 'wizard'));
    }
  }

  if (candidates.isPending || roles.isPending) return <Loader aria-label="Loading PSA members" />;
  if (candidates.isError) return <Alert color="red">{psaErrorMessage(candidates.error, 'wizard')}</Alert>;

  return (
    <Stack gap="md">
      <Text size="sm">Choose the PSA members who work tickets in Switchboard. Each gets a tier and a role; you can change both later under Employees.</Text>
      {members.length === 0 ? (
        <Text c="dimmed">Every PSA member with an e-mail address is already a technician.</Text>
      ) : (
        <ScrollArea.Autosize mah={isNarrow ? 560 : 420} type="auto" offsetScrollbars="present">
          <Table striped withTableBorder miw={isNarrow ? undefined : 560} aria-label="PSA members">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <VisuallyHidden>Import</VisuallyHidden>
                </Table.Th>
                <Table.Th>{isNarrow ? 'Member, tier and role' : 'Member'}</Table.Th>
                {!isNarrow && <Table.Th>Tier</Table.Th>}
                {!isNarrow && <Table.Th>Role</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.map((member) => {
                const choice = chosen[member.psaMemberId];
                const name = `${member.firstName} ${member.lastName}`.trim();
                const tierSelect = (
                  <NativeSelect
                    aria-label={`Tier of ${name}`}
                    disabled={!choice}
                    value={choice?.tierLevel ?? 'Tier1'}
                    data={TEAM_TIER_OPTIONS}
                    onChange={(event) => update(member.psaMemberId, { tierLevel: event.currentTarget.value as TTierLevel })}
                  />
                );
                const roleSelect = (
                  <NativeSelect
                    aria-label={`Role of ${name}`}
                    disabled={!choice}
                    value={choice?.roleId ?? defaultRoleId}
                    data={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
                    onChange={(event) => update(member.psaMemberId, { roleId: event.currentTarget.value })}
                  />
                );
                const identity = (
                  <>
                    <Text size="sm">{name}</Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {member.email ?? 'No e-mail in the PSA: cannot be imported'}
                    </Text>
                  </>
                );
                return (
                  <Table.Tr key={member.psaMemberId}>
                    <Table.Td style={{ verticalAlign: isNarrow ? 'top' : undefined }}>
                      <Checkbox aria-label={`Import ${name}`} checked={choice !== undefined} disabled={!member.email} onChange={() => toggle(member.psaMemberId)} mt={isNarrow ? 2 : undefined} />
                    </Table.Td>
                    {isNarrow ? (
                      <Table.Td>
                        <Stack gap={6}>
                          <div>{identity}</div>
                          {/* Only a chosen member's tier and role matter; the others' would be two disabled boxes per row. */}
                          {choice && (
                            <SimpleGrid cols={2} spacing="xs">
                              {tierSelect}
                              {roleSelect}
                            </SimpleGrid>
                          )}
                        </Stack>
                      </Table.Td>
                    ) : (
                      <>
                        <Table.Td>{identity}</Table.Td>
                        <Table.Td>{tierSelect}</Table.Td>
                        <Table.Td>{roleSelect}</Table.Td>
                      </>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {importedCount > 0 && (
        <Alert color="green" role="status">
          {importedCount === 1 ? '1 technician imported.' : `${importedCount} technicians imported.`}
        </Alert>
      )}
      <Group justify="space-between">
        <Button variant="light" onClick={() => void handleImport()} loading={importMembers.isPending} disabled={Object.keys(chosen).length === 0}>
          Import {Object.keys(chosen).length || ''} selected
        </Button>
        <Button onClick={onComplete} loading={isCompleting}>
          Continue to teams
        </Button>
      </Group>
    </Stack>
  );
}
