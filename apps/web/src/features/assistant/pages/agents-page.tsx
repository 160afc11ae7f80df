import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, List, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { DEFAULT_AGENT_ID, MESSAGES } from '@switchboard/contracts';
import type { TAgent } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useAgents, useCreateAgent, useDeleteAgent, useEditAgent } from '../api/assistant-queries';
import { AgentFormModal } from '../components/agent-form-modal';
import { useDocumentTitle } from '../../../lib/use-document-title';

const formOf = (agent: TAgent) => ({ agentName: agent.agentName, role: agent.role, description: agent.description, objectives: agent.objectives });

/** 02 §4 Agents: the built-in troubleshooter and the MSP's custom agents; create, edit (a new agent from the old) and soft delete. */
export function AgentsPage({ mspCustomDomain, onOpenAgent }: { mspCustomDomain: string; onOpenAgent?: (agent: TAgent) => void }) {
  useDocumentTitle('Agents');
  const agentsQuery = useAgents();
  const createAgent = useCreateAgent(mspCustomDomain);
  const editAgent = useEditAgent(mspCustomDomain);
  const deleteAgent = useDeleteAgent();
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'edit'; agent: TAgent } | null>(null);

  function close() {
    createAgent.reset();
    editAgent.reset();
    setDialog(null);
  }

  function handleDelete(agent: TAgent) {
    modals.openConfirmModal({
      title: `Delete ${agent.agentName}?`,
      children: <Text size="sm">{MESSAGES.assistant.agentDeleteWarning}</Text>,
      labels: { confirm: 'Delete agent', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deleteAgent.mutate(agent.id, {
          onSuccess: () => notifications.show({ color: 'green', title: 'Agent deleted', message: agent.agentName }),
          onError: (error) => notifications.show({ color: 'red', title: 'The agent could not be deleted', message: errorDetail(error) }),
        }),
    });
  }

  const agents = agentsQuery.data ?? [];
  return (
    <Stack component="section" aria-labelledby="agents-title">
      <Group justify="space-between">
        <Title order={1} size="h2" id="agents-title">
          Agents
        </Title>
        <Button onClick={() => setDialog({ kind: 'create' })}>Create agent</Button>
      </Group>
      {agentsQuery.isPending && <Loader aria-label="Loading agents" />}
      {agentsQuery.isError && (
        <Alert color="red" role="alert">
          {errorDetail(agentsQuery.error)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} component="ul" aria-label="Agents" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {agents.map((agent) => {
          const isBuiltIn = agent.id === DEFAULT_AGENT_ID || !agent.custom;
          return (
            <Card key={agent.id} withBorder component="li" aria-label={agent.agentName}>
              <Group justify="space-between" wrap="nowrap" mb={4}>
                <Text fw={700}>{agent.agentName}</Text>
                {isBuiltIn && (
                  <Badge variant="light" color="gray">
                    Built in
                  </Badge>
                )}
              </Group>
              <Text size="sm" c="dimmed">
                {agent.role}
              </Text>
              <Text size="sm" mt="xs" lineClamp={3}>
                {agent.description}
              </Text>
              {agent.objectives.length > 0 && (
                <List size="sm" mt="xs" spacing={2}>
                  {agent.objectives.slice(0, 4).map((objective) => (
                    <List.Item key={objective}>{objective}</List.Item>
                  ))}
                </List>
              )}
              <Group gap="xs" mt="sm">
                {onOpenAgent && (
                  <Button size="xs" variant="light" onClick={() => onOpenAgent(agent)} aria-label={`Chat with ${agent.agentName}`}>
                    Chat
                  </Button>
                )}
                {!isBuiltIn && (
                  <>
                    <Button size="xs" variant="light" onClick={() => setDialog({ kind: 'edit', agent })} aria-label={`Edit ${agent.agentName}`}>
                      Edit
                    </Button>
                    <Button size="xs" variant="light" color="red" onClick={() => handleDelete(agent)} aria-label={`Delete ${agent.agentName}`}>
                      Delete
                    </Button>
                  </>
                )}
              </Group>
            </Card>
          );
        })}
      </SimpleGrid>
      {dialog?.kind === 'create' && (
        <AgentFormModal
          title="Create agent"
          submitLabel="Create agent"
          initial={{ agentName: '', role: '', description: '', objectives: [''] }}
          isSaving={createAgent.isPending}
          saveError={createAgent.error}
          onClose={close}
          onSave={(form) =>
            createAgent.mutate(form, {
              onSuccess: (agent) => {
                notifications.show({ color: 'green', title: 'Agent created', message: agent.agentName });
                close();
              },
            })
          }
        />
      )}
      {dialog?.kind === 'edit' && (
        <AgentFormModal
          title={`Edit ${dialog.agent.agentName}`}
          submitLabel="Save agent"
          initial={formOf(dialog.agent)}
          isSaving={editAgent.isPending}
          saveError={editAgent.error}
          onClose={close}
          onSave={(form) =>
            editAgent.mutate(
              { agentId: dialog.agent.id, form },
              {
                onSuccess: (agent) => {
                  notifications.show({ color: 'green', title: 'Agent saved', message: agent.agentName });
                  close();
                },
              },
            )
          }
        />
      )}
    </Stack>
  );
}
