import { useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Alert, Button, Group, Loader, NativeSelect, Pagination, SegmentedControl, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import { CHAT_PAGE_SIZE, DEFAULT_AGENT_ID, MESSAGES, PROMPT_SUGGESTION_COUNT, defaultConversationName } from '@switchboard/contracts';
import type { TAgent, TChatMessage, TConversation, TMessagePage, TSessionMspUser } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { formatWhen } from '../../../lib/format-when';
import {
  assistantKeys,
  useAddConversation,
  useAgents,
  useConversations,
  useCreateAgent,
  useDeleteConversation,
  useEditAgent,
  useFeedback,
  useMessages,
  usePromptSuggestions,
} from '../api/assistant-queries';
import { streamJarvisAnswer } from '../api/jarvis-stream';
import { CHAT_MODES, CONVERSATION_FILTERS, useAssistantUiStore } from '../state/assistant-ui-store';
import type { TChatMode, TConversationFilter } from '../state/assistant-ui-store';
import { lineOfMessage } from '../state/ticket-flow-store';
import { AgentForm } from './agent-form-modal';
import { ChatComposer } from './chat-composer';
import { ChatMessageList } from './chat-message-list';
import type { TChatLine } from './chat-message-list';

const isChatMode = (value: string): value is TChatMode => (CHAT_MODES as readonly string[]).includes(value);
const isFilter = (value: string): value is TConversationFilter => (CONVERSATION_FILTERS as readonly string[]).includes(value);

/** Oldest first; a question and its answer stored in the same instant keep question-then-answer order. */
function sortMessages(messages: TChatMessage[]): TChatMessage[] {
  return [...messages].sort((a, b) => a.timeStamp.localeCompare(b.timeStamp) || (a.role === b.role ? 0 : a.role === 'user' ? -1 : 1));
}

/**
 * A conversation still under its default name ("Chat - 2026-11-27 12:48", stamped in UTC by the server, R-249)
 * shows its time as the ticket screens do; a name the user gave is shown as given.
 */
function conversationTitle(conversation: TConversation): string {
  const isDefaultName = conversation.conversationName === defaultConversationName(new Date(conversation.timeStamp));
  return isDefaultName ? MESSAGES.assistant.defaultConversationName.replace('{timestamp}', formatWhen(conversation.timeStamp)) : conversation.conversationName;
}

function sortConversations(conversations: TConversation[], filter: TConversationFilter): TConversation[] {
  const sorted = [...conversations].sort((a, b) => b.timeStamp.localeCompare(a.timeStamp));
  return filter === 'Newest' ? sorted : sorted.reverse();
}

function ConversationList({ agentId, onOpen }: { agentId: string; onOpen: (conversation: TConversation | null) => void }) {
  const { filter, setFilter, conversationId } = useAssistantUiStore();
  const [page, setPage] = useState(1);
  // The server sorts the whole list; the page is sorted again below only to place a conversation added meanwhile.
  const conversations = useConversations(agentId, page, filter === 'Oldest' ? 'asc' : 'desc');
  const deleteConversation = useDeleteConversation(agentId);
  const data = conversations.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / CHAT_PAGE_SIZE)) : 1;
  // The last page's only conversation deleted (or conversations gone elsewhere): go to the last page there is.
  if (data && !conversations.isPlaceholderData && page > pageCount) setPage(pageCount);

  /** Another order starts on its first page (the first page of the oldest, not page 3 of them). */
  function handleFilterChange(value: string) {
    if (!isFilter(value)) return;
    setFilter(value);
    setPage(1);
  }

  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <NativeSelect aria-label="Sort conversations" size="xs" data={[...CONVERSATION_FILTERS]} value={filter} onChange={(event) => handleFilterChange(event.currentTarget.value)} />
        <Button size="compact-sm" variant="light" onClick={() => onOpen(null)}>
          New chat
        </Button>
      </Group>
      {conversations.isPending && <Loader size="sm" aria-label="Loading conversations" />}
      {conversations.isError && (
        <Text size="sm" c="red.8">
          {errorDetail(conversations.error)}
        </Text>
      )}
      {data && data.total === 0 && (
        <Text size="sm" c="dimmed">
          No conversations with this agent yet.
        </Text>
      )}
      <Stack gap={2} component="ul" aria-label="Conversations" style={{ listStyle: 'none', padding: 0, margin: 0, maxHeight: 180, overflowY: 'auto' }}>
        {sortConversations(data?.conversations ?? [], filter).map((conversation) => (
          <Group key={conversation.id} component="li" gap={4} wrap="nowrap" justify="space-between">
            <UnstyledButton
              onClick={() => onOpen(conversation)}
              aria-current={conversation.id === conversationId ? 'true' : undefined}
              px="xs"
              py={4}
              style={{ flex: 1, borderRadius: 4, background: conversation.id === conversationId ? 'var(--mantine-primary-color-light)' : undefined }}
            >
              <Text size="sm" truncate="end">
                {conversationTitle(conversation)}
              </Text>
            </UnstyledButton>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red"
              aria-label={`Delete ${conversationTitle(conversation)}`}
              loading={deleteConversation.isPending && deleteConversation.variables === conversation.id}
              onClick={() => deleteConversation.mutate(conversation.id, { onSuccess: () => conversation.id === conversationId && onOpen(null) })}
            >
              <span aria-hidden="true">✕</span>
            </ActionIcon>
          </Group>
        ))}
      </Stack>
      {deleteConversation.isError && (
        <Text size="sm" c="red.8" role="alert">
          The conversation could not be deleted. {errorDetail(deleteConversation.error)}
        </Text>
      )}
      {pageCount > 1 && <Pagination size="xs" total={pageCount} value={page} onChange={setPage} aria-label="Conversation pages" />}
    </Stack>
  );
}

type TTemporaryLines = { conversationId: string | null; lines: TChatLine[] };

function PromptButtons({ label, prompts, isDisabled, onSend }: { label: string; prompts: readonly string[]; isDisabled: boolean; onSend: (prompt: string) => void }) {
  if (prompts.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label={label}>
      {prompts.map((prompt) => (
        <Button key={prompt} size="compact-xs" variant="light" disabled={isDisabled} onClick={() => onSend(prompt)} styles={{ label: { whiteSpace: 'normal' } }} h="auto" py={4}>
          {prompt}
        </Button>
      ))}
    </Group>
  );
}

/** The conversation with the chosen agent: stored messages, the streamed answer, feedback and prompt suggestions. */
function AgentConversation({ user, agent }: { user: TSessionMspUser; agent: TAgent }) {
  const { conversationId, openConversation } = useAssistantUiStore();
  const messages = useMessages(conversationId);
  const addConversation = useAddConversation();
  const feedback = useFeedback();
  const prompts = usePromptSuggestions();
  const queryClient = useQueryClient();
  // The question and the answer being written until they are stored (or their error), for the
  // conversation they belong to: another conversation opened drops them.
  const [temporary, setTemporary] = useState<TTemporaryLines>({ conversationId, lines: [] });
  if (temporary.conversationId !== conversationId) setTemporary({ conversationId, lines: [] });
  const pending = temporary.conversationId === conversationId ? temporary.lines : [];
  const isStreaming = pending.some((line) => line.isStreaming === true);
  const abort = useRef<AbortController | null>(null);
  // What the message box holds, for the prompt generator; and whether it was asked with nothing to go on.
  const [draft, setDraft] = useState('');
  const [isPromptInputMissing, setPromptInputMissing] = useState(false);

  const stored = useMemo(() => {
    // Page 1 holds the newest 30; older pages come after it, so they are shown first.
    const pages = [...(messages.data?.pages ?? [])].reverse();
    return sortMessages(pages.flatMap((page) => page.messages)).map(lineOfMessage);
  }, [messages.data]);
  const lines = [...stored, ...pending.filter((line) => !stored.some((candidate) => candidate.key === line.key))];

  async function send(text: string) {
    let id = conversationId;
    let controller: AbortController | null = null;
    /** Changes the temporary lines only while they still belong to this conversation. */
    const updateLines = (update: (lines: TChatLine[]) => TChatLine[]) =>
      setTemporary((current) => (current.conversationId === id ? { conversationId: id, lines: update(current.lines) } : current));
    try {
      if (id === null) {
        const conversation = await addConversation.mutateAsync({ agentID: agent.id });
        id = conversation.id;
        openConversation(agent.id, id);
      }
      const answerKey = `answer-${Date.now()}`;
      setTemporary({
        conversationId: id,
        lines: [
          { key: `you-${Date.now()}`, messageId: null, role: 'user', text },
          { key: answerKey, messageId: null, role: 'assistant', text: '', isStreaming: true },
        ],
      });
      controller = new AbortController();
      abort.current = controller;
      const response = await streamJarvisAnswer(
        { text, conversationId: id, technicianId: user.userKind === 'technician' ? user.id : null, useRAG: true },
        (soFar) => updateLines((lines) => lines.map((line) => (line.key === answerKey ? { ...line, text: soFar.text, ...(soFar.passages ? { passages: soFar.passages } : {}) } : line))),
        controller.signal,
      );
      const settled: TChatMessage[] = [response.userMessage, response.assistantMessage];
      // The stored messages take the streamed lines' place in one render, then the page is re-read.
      queryClient.setQueryData<InfiniteData<TMessagePage>>(assistantKeys.messages(id), (old) => {
        const first = old?.pages[0] ?? { messages: [], page: 1, pageSize: CHAT_PAGE_SIZE, total: 0 };
        const known = new Set(first.messages.map((message) => message.id));
        const added = settled.filter((message) => !known.has(message.id));
        const merged = { ...first, messages: [...first.messages, ...added], total: first.total + added.length };
        return { pages: [merged, ...(old?.pages.slice(1) ?? [])], pageParams: old?.pageParams ?? [1] };
      });
      updateLines(() => []);
      void queryClient.invalidateQueries({ queryKey: assistantKeys.messages(id) });
    } catch (error) {
      if (controller?.signal.aborted === true) {
        // Stop: what was written so far stays on screen, marked as stopped (the server stores no half answer); nothing went wrong.
        updateLines((lines) => lines.flatMap((line) => (line.isStreaming !== true ? [line] : line.text === '' ? [] : [{ ...line, isStreaming: false, isStopped: true }])));
        return;
      }
      updateLines((lines) => [...lines.filter((line) => !line.isStreaming), { key: `error-${Date.now()}`, messageId: null, role: 'assistant', text: errorDetail(error), isError: true }]);
    }
  }

  const suggestions = prompts.data ?? [];

  /**
   * R-256 / 02 §5: the prompt generator needs non-blank user input or a troubleshoot message: the message box's text,
   * else the conversation's last question; with neither it asks for one and sends nothing.
   */
  function handleSuggestPrompts() {
    const lastQuestion = [...lines].reverse().find((line) => line.role === 'user' && line.isError !== true)?.text ?? '';
    const topic = draft.trim() !== '' ? draft.trim() : lastQuestion.trim();
    setPromptInputMissing(topic === '');
    if (topic === '') return;
    const asker = user.userKind === 'technician' ? 'a technician' : 'an employee of a client company';
    prompts.mutate(`${topic}\n\nGive the top ${PROMPT_SUGGESTION_COUNT} prompts ${asker} could ask ${agent.agentName} (${agent.role}) about this.`);
  }

  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      {/* No notice line above the chat: every answer's first sentence says where it comes from (no model, or why the model did not answer). */}
      <ChatMessageList
        label={`Chat with ${agent.agentName}`}
        lines={lines}
        isThinking={addConversation.isPending}
        onFeedback={async (messageId, value) => {
          await feedback.mutateAsync({ messageId, feedback: value });
        }}
        emptyState={
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {agent.defaultPrompt ?? `Ask ${agent.agentName} anything about ${agent.role.toLowerCase()}.`}
            </Text>
            <PromptButtons label="Example prompts" prompts={agent.examplePrompts} isDisabled={isStreaming} onSend={(prompt) => void send(prompt)} />
          </Stack>
        }
        olderMessages={{
          hasMore: messages.hasNextPage,
          isLoading: messages.isFetchingNextPage,
          error: messages.isFetchNextPageError ? errorDetail(messages.error) : null,
          onShow: () => void messages.fetchNextPage(),
        }}
      />
      {/* Above the composer, not in the empty state: a conversation with messages has no empty state, and the prompts never showed there. */}
      {suggestions.length > 0 && <PromptButtons label="Suggested prompts" prompts={suggestions.slice(0, PROMPT_SUGGESTION_COUNT)} isDisabled={isStreaming} onSend={(prompt) => void send(prompt)} />}
      {prompts.isError && (
        <Text size="sm" c="red.8" role="alert">
          No prompts could be suggested. {errorDetail(prompts.error)}
        </Text>
      )}
      {isPromptInputMissing && (
        <Text size="sm" c="red.8" role="alert">
          {MESSAGES.assistant.promptInputRequired}
        </Text>
      )}
      <Group gap="xs" justify="space-between">
        <Button
          size="compact-xs"
          variant="subtle"
          loading={prompts.isPending}
          onClick={handleSuggestPrompts}
        >
          Suggest prompts
        </Button>
        {isStreaming && (
          <Button size="compact-xs" variant="subtle" color="red" onClick={() => abort.current?.abort()}>
            Stop
          </Button>
        )}
      </Group>
      <ChatComposer
        label={`Message to ${agent.agentName}`}
        placeholder="Ask a question"
        isSending={isStreaming || addConversation.isPending}
        onSend={(text) => void send(text)}
        onTextChange={(text) => {
          setDraft(text);
          if (text.trim() !== '') setPromptInputMissing(false);
        }}
      />
    </Stack>
  );
}

/**
 * The "Engineer" tab: chat with the built-in troubleshooter or a custom agent. Chat modes:
 * History lists this person's conversations with the agent (Newest first by default), Edit changes
 * the agent (a new agent from the old, R-245), Create makes a new agent; a client user has History only.
 */
export function EngineerChat({ user }: { user: TSessionMspUser }) {
  const { agentId, chatMode: chosenMode, setChatMode, openConversation } = useAssistantUiStore();
  // Agents are created and edited by technicians only: a client user has History alone.
  const canEditAgents = user.userKind === 'technician';
  const chatMode: TChatMode = canEditAgents ? chosenMode : 'History';
  const agentsQuery = useAgents();
  const agents = agentsQuery.data ?? [];
  // The chosen agent deleted (on the Agents screen or elsewhere): its conversation is not shown under another agent's
  // name (review s29); the default agent opens with no conversation once the list is current (not while it is re-read).
  const isChosenAgentMissing = agentsQuery.data !== undefined && agentId !== null && !agents.some((candidate) => candidate.id === agentId);
  const isChosenAgentGone = isChosenAgentMissing && !agentsQuery.isFetching;
  useEffect(() => {
    if (isChosenAgentGone) openConversation(DEFAULT_AGENT_ID, null);
  }, [isChosenAgentGone, openConversation]);
  const agent = isChosenAgentMissing ? undefined : (agents.find((candidate) => candidate.id === agentId) ?? agents.find((candidate) => candidate.id === DEFAULT_AGENT_ID) ?? agents[0]);
  const createAgent = useCreateAgent(user.mspCustomDomain);
  const editAgent = useEditAgent(user.mspCustomDomain);
  const isBuiltIn = agent ? agent.id === DEFAULT_AGENT_ID || !agent.custom : true;

  if (agentsQuery.isPending) return <Loader size="sm" aria-label="Loading agents" />;
  if (agentsQuery.isError) return <Alert color="red">{errorDetail(agentsQuery.error)}</Alert>;

  return (
    <Stack gap="xs" style={{ flex: 1, minHeight: 0 }}>
      <Group gap="xs" wrap="wrap" align="flex-end">
        <NativeSelect
          label="Agent"
          size="xs"
          data={agents.map((candidate) => ({ value: candidate.id, label: candidate.agentName }))}
          value={agent?.id ?? ''}
          onChange={(event) => openConversation(event.currentTarget.value, null)}
          style={{ flex: '1 1 10rem' }}
        />
        {canEditAgents && <SegmentedControl size="xs" aria-label="Chat mode" data={[...CHAT_MODES]} value={chatMode} onChange={(value) => isChatMode(value) && setChatMode(value)} />}
      </Group>
      {chatMode === 'Create' && (
        <AgentForm
          title="Create agent"
          submitLabel="Create agent"
          initial={{ agentName: '', role: '', description: '', objectives: [''] }}
          isSaving={createAgent.isPending}
          saveError={createAgent.error}
          onClose={() => setChatMode('History')}
          onSave={(form) =>
            createAgent.mutate(form, {
              onSuccess: (created) => {
                openConversation(created.id, null);
                setChatMode('History');
              },
            })
          }
        />
      )}
      {chatMode === 'Edit' && agent && isBuiltIn && <Text size="sm">{MESSAGES.assistant.defaultAgentReadOnly}</Text>}
      {chatMode === 'Edit' && agent && !isBuiltIn && (
        <AgentForm
          key={agent.id}
          title={`Edit ${agent.agentName}`}
          submitLabel="Save agent"
          initial={{ agentName: agent.agentName, role: agent.role, description: agent.description, objectives: agent.objectives }}
          isSaving={editAgent.isPending}
          saveError={editAgent.error}
          onClose={() => setChatMode('History')}
          onSave={(form) =>
            editAgent.mutate(
              { agentId: agent.id, form },
              {
                onSuccess: (edited) => {
                  openConversation(edited.id, null);
                  setChatMode('History');
                },
              },
            )
          }
        />
      )}
      {chatMode === 'History' && agent && (
        <>
          {/* Keyed by agent: another agent's History starts on its first page with nothing of the last agent's list. */}
          <ConversationList key={`conversations-${agent.id}`} agentId={agent.id} onOpen={(conversation) => openConversation(agent.id, conversation?.id ?? null)} />
          <AgentConversation key={agent.id} user={user} agent={agent} />
        </>
      )}
    </Stack>
  );
}
