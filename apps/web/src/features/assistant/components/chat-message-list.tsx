import { useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Badge, Box, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { FEEDBACK_CONFIRMATION_MS, MESSAGES, numberCitationsBySource, sourcesListText } from '@switchboard/contracts';
import type { TSource } from '@switchboard/contracts';
import { useClearingState } from '../../../lib/use-clearing-state';
import { isScrolledToBottom } from '../lib/chat-layout';
import { MarkdownAnswer } from './markdown-answer';

/** An answer button; buttons sharing a `groupId` show together, compact ones as small follow-ups in a row. */
export type TChatButton = { id: string; label: string; groupId?: string; isCompact?: boolean; isInline?: boolean; groupLabel?: string };

/** Consecutive buttons of one group, in order. */
function groupButtons(buttons: TChatButton[]): TChatButton[][] {
  const groups: TChatButton[][] = [];
  for (const button of buttons) {
    const last = groups.at(-1);
    if (last && button.groupId !== undefined && last[0]?.groupId === button.groupId) last.push(button);
    else groups.push([button]);
  }
  return groups;
}

/** One line of a chat as the screen shows it (user text, or an assistant answer with its buttons). */
export type TChatLine = {
  key: string;
  /** The stored message id, when the server has one (feedback needs it). */
  messageId: string | null;
  role: 'user' | 'assistant';
  text: string;
  /** Answer buttons (diagnostic question options, troubleshooting steps). */
  buttons?: TChatButton[];
  buttonsLabel?: string;
  /** Sources an answer cites. */
  sources?: string[];
  /** While a model's answer streams (and once stopped): the source behind each of its [Sn] citations, `passages[n - 1]`. */
  passages?: TSource[];
  isStreaming?: boolean;
  /** The person pressed Stop: the text is what was written until then. */
  isStopped?: boolean;
  isError?: boolean;
  /** The feedback saved on an answer, shown as the pressed button after a reload. */
  feedback?: 'positive' | 'negative' | null;
};

/**
 * A stored conversation longer than what is shown (R-255: page 1 is the newest 30, older pages load on
 * demand): "Show older messages" above the first line loads the next older page there.
 */
export type TOlderMessages = {
  hasMore: boolean;
  isLoading: boolean;
  /** Why the last load failed, in plain words (null when it did not). */
  error: string | null;
  onShow: () => void;
};

type TChatMessageListProps = {
  lines: TChatLine[];
  label: string;
  emptyState?: ReactNode;
  isThinking?: boolean;
  chosenButtonIds?: ReadonlySet<string>;
  onChooseButton?: (line: TChatLine, button: TChatButton) => void;
  /** While a button's request is under way no answer button can be pressed again; the pressed one shows loading. */
  areButtonsDisabled?: boolean;
  loadingButtonId?: string | null;
  onFeedback?: (messageId: string, feedback: 'positive' | 'negative') => Promise<void>;
  footer?: ReactNode;
  olderMessages?: TOlderMessages;
};

type TFeedback = 'positive' | 'negative';

function FeedbackButtons({ messageId, saved, onFeedback }: { messageId: string; saved: TFeedback | null; onFeedback: (messageId: string, feedback: TFeedback) => Promise<void> }) {
  // 02 §4 Chat / R-254: the confirmation shows for 2 seconds.
  const [confirmation, setConfirmation] = useClearingState<string>(FEEDBACK_CONFIRMATION_MS);
  // The choice made here, until the stored message says the same (or another) after a re-read.
  const [chosen, setChosen] = useState<TFeedback | null>(null);
  const current = chosen ?? saved;

  async function send(feedback: TFeedback) {
    try {
      await onFeedback(messageId, feedback);
      setChosen(feedback);
      setConfirmation(MESSAGES.assistant.feedbackSaved);
    } catch {
      setConfirmation('Your feedback could not be saved. Please try again.');
    }
  }

  return (
    <Group gap={4} mt={4}>
      {/* Words, not emoji: not every system has an emoji font. */}
      <Button size="compact-xs" variant={current === 'positive' ? 'light' : 'subtle'} color="gray.8" aria-label="Helpful answer" aria-pressed={current === 'positive'} onClick={() => void send('positive')}>
        Helpful
      </Button>
      <Button size="compact-xs" variant={current === 'negative' ? 'light' : 'subtle'} color="gray.8" aria-label="Unhelpful answer" aria-pressed={current === 'negative'} onClick={() => void send('negative')}>
        Not helpful
      </Button>
      <Text size="xs" c="dimmed" role="status" aria-live="polite">
        {confirmation ?? ''}
      </Text>
    </Group>
  );
}

/** Answers that end with their own numbered "Sources:" list (the one their [1], [2] point at) need no second list of chips. */
const SOURCES_FOOTER = /(^|\n)Sources:\s*\n\s*\[1\]/;

export function hasSourcesFooter(text: string): boolean {
  return SOURCES_FOOTER.test(text);
}

/** The answer without its closing numbered "Sources:" list, for a screen that links the sources itself. */
export function withoutSourcesFooter(text: string): string {
  const found = SOURCES_FOOTER.exec(text);
  return found ? text.slice(0, found.index).trimEnd() : text;
}

/** A model's citation of its n-th retrieved source, as it writes it ([S1], [S2]…), with the space before it. */
const MODEL_CITATION = /([ \t]?)\[S(\d{1,3})\]/g;
/** The start of a citation not yet complete at the end of the text so far ("[", "[S", "[S1"). */
const UNFINISHED_CITATION = /[ \t]?\[(?:S\d{0,3})?$/;

/**
 * A streamed (or stopped) answer's text as the final answer will show it: the server numbers the model's [S2], [S1]…
 * [1], [2]… by the source behind them in the order first cited and adds the Sources list, but the words stream before
 * that, so the same numbering (`numberCitationsBySource`, with the stream's `passages`) is done here and a citation
 * still arriving is left out until it is whole. Review s28: the raw markers showed until the final answer replaced them,
 * and numbered by marker rather than by source, two passages of one article changed from [1], [2] to [1], [1] at the end.
 * Without `passages` (a stream that did not say) each marker is taken for its own source.
 */
export function withStreamedCitationsNumbered(text: string, passages?: readonly TSource[]): string {
  if (passages) return numberCitationsBySource(text, passages).text.replace(UNFINISHED_CITATION, '');
  const citedOrder: string[] = [];
  const numbered = text.replace(MODEL_CITATION, (_whole, space: string, sourceNumber: string) => {
    if (!citedOrder.includes(sourceNumber)) citedOrder.push(sourceNumber);
    return `${space}[${citedOrder.indexOf(sourceNumber) + 1}]`;
  });
  return numbered.replace(UNFINISHED_CITATION, '');
}

/**
 * An answer still being written or stopped half way, as the screen shows it: its citations numbered as the stored answer
 * numbers them, and, once stopped (the server stores no half answer, so no list ever comes), the Sources list of what it
 * cited, worded as the server words it.
 */
function unfinishedAnswerText(line: TChatLine): string {
  const text = withStreamedCitationsNumbered(line.text, line.passages);
  if (line.isStopped !== true || !line.passages || hasSourcesFooter(text)) return text;
  const { cited } = numberCitationsBySource(line.text, line.passages);
  return cited.length > 0 ? `${text}\n${sourcesListText(cited)}` : text;
}

/**
 * The conversation. New lines scroll it to the bottom only when the reader was already there
 * (within 10 px, R-044), so reading an older answer is never interrupted. Older lines loaded above
 * keep the reader on the line they were reading.
 */
export function ChatMessageList({ lines, label, emptyState, isThinking = false, chosenButtonIds, onChooseButton, areButtonsDisabled = false, loadingButtonId = null, onFeedback, footer, olderMessages }: TChatMessageListProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const wasAtBottom = useRef(true);
  /** The first line and the content's height at the last render, to tell lines added above from lines added below. */
  const shownBefore = useRef<{ firstKey: string | undefined; scrollHeight: number }>({ firstKey: undefined, scrollHeight: 0 });
  const lastText = lines.at(-1)?.text ?? '';
  const firstKey = lines[0]?.key;

  // Every render: when lines came above the first one, the content grew above the reader by the height it gained.
  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const before = shownBefore.current;
    const hasGrownAbove = before.firstKey !== undefined && firstKey !== before.firstKey && lines.some((line) => line.key === before.firstKey);
    if (hasGrownAbove) container.scrollTop += container.scrollHeight - before.scrollHeight;
    shownBefore.current = { firstKey, scrollHeight: container.scrollHeight };
  });

  useLayoutEffect(() => {
    const container = containerRef.current;
    if (container && wasAtBottom.current) container.scrollTop = container.scrollHeight;
  }, [lines.length, lastText, isThinking]);

  return (
    <Box
      ref={containerRef}
      role="log"
      aria-label={label}
      aria-live="polite"
      onScroll={(event) => {
        wasAtBottom.current = isScrolledToBottom(event.currentTarget);
      }}
      // The browser's own scroll anchoring would move the reader a second time when older lines come above.
      style={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowAnchor: 'none' }}
      px="xs"
    >
      <Stack gap="sm" py="xs">
        {olderMessages?.hasMore === true && (
          <Stack gap={4} align="center">
            <Button size="compact-xs" variant="subtle" onClick={olderMessages.onShow} loading={olderMessages.isLoading}>
              Show older messages
            </Button>
            {olderMessages.error !== null && (
              <Text size="sm" c="red.8" role="alert">
                The older messages could not be loaded. {olderMessages.error}
              </Text>
            )}
          </Stack>
        )}
        {lines.length === 0 && emptyState}
        {lines.map((line) => (
          <Box key={line.key} style={{ alignSelf: line.role === 'user' ? 'flex-end' : 'stretch', maxWidth: line.role === 'user' ? '85%' : '100%' }}>
            <Paper
              p="sm"
              radius="md"
              withBorder={line.role === 'assistant'}
              bg={line.role === 'user' ? 'var(--mantine-primary-color-light)' : undefined}
              c={line.isError ? 'red' : undefined}
            >
              <Text size="xs" c="dimmed" mb={4}>
                {line.role === 'user' ? 'You' : 'Jarvis'}
                {line.isStreaming ? ' · writing…' : line.isStopped ? ' · stopped' : ''}
              </Text>
              {line.role === 'assistant' ? <MarkdownAnswer text={line.isStreaming === true || line.isStopped === true ? unfinishedAnswerText(line) : line.text} /> : <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{line.text}</Text>}
              {line.buttons && line.buttons.length > 0 && (
                <Stack gap={6} mt="xs" role="group" aria-label={line.buttonsLabel ?? 'Answers'}>
                  {groupButtons(line.buttons).map((group) => {
                    const main = group.filter((button) => button.isCompact !== true);
                    const compact = group.filter((button) => button.isCompact === true);
                    const first = group[0];
                    if (first?.isInline === true) {
                      // The options of one question, side by side under its number.
                      return (
                        <Group key={first.id} gap={6} wrap="wrap" role="group" aria-label={first.groupLabel}>
                          {first.groupLabel !== undefined && (
                            <Text size="sm" fw={600} miw={88}>
                              {first.groupLabel}
                            </Text>
                          )}
                          {group.map((button) => {
                            const isChosen = chosenButtonIds?.has(button.id) === true;
                            return (
                              <Button key={button.id} variant={isChosen ? 'filled' : 'light'} size="compact-sm" aria-pressed={isChosen} disabled={areButtonsDisabled} loading={button.id === loadingButtonId} onClick={() => onChooseButton?.(line, button)}>
                                {button.label}
                              </Button>
                            );
                          })}
                        </Group>
                      );
                    }
                    return (
                      <Stack key={first?.id} gap={4}>
                        {main.map((button) => {
                          const isChosen = chosenButtonIds?.has(button.id) === true;
                          return (
                            <Button
                              key={button.id}
                              variant={isChosen ? 'filled' : 'light'}
                              size="compact-sm"
                              justify="flex-start"
                              aria-pressed={isChosen}
                              disabled={areButtonsDisabled} loading={button.id === loadingButtonId} onClick={() => onChooseButton?.(line, button)}
                              styles={{ root: { height: 'auto', minHeight: 28, paddingTop: 4, paddingBottom: 4 }, label: { whiteSpace: 'normal', textAlign: 'left' } }}
                            >
                              {button.label}
                            </Button>
                          );
                        })}
                        {compact.length > 0 && (
                          <Group gap={4} wrap="wrap">
                            {compact.map((button) => (
                              <Button key={button.id} variant="default" size="compact-xs" disabled={areButtonsDisabled} loading={button.id === loadingButtonId} onClick={() => onChooseButton?.(line, button)}>
                                {button.label}
                              </Button>
                            ))}
                          </Group>
                        )}
                      </Stack>
                    );
                  })}
                </Stack>
              )}
              {line.sources && line.sources.length > 0 && !hasSourcesFooter(line.text) && (
                <Group gap={4} mt="xs">
                  <Text size="xs" c="dimmed">
                    Sources:
                  </Text>
                  {line.sources.map((source) => (
                    <Badge key={source} size="xs" variant="outline" style={{ textTransform: 'none' }}>
                      {source}
                    </Badge>
                  ))}
                </Group>
              )}
            </Paper>
            {line.role === 'assistant' && line.messageId !== null && !line.isStreaming && onFeedback && <FeedbackButtons messageId={line.messageId} saved={line.feedback ?? null} onFeedback={onFeedback} />}
          </Box>
        ))}
        {isThinking && (
          <Group gap="xs">
            <Loader size="xs" type="dots" />
            <Text size="sm" c="dimmed">
              Jarvis is thinking…
            </Text>
          </Group>
        )}
        {footer}
      </Stack>
    </Box>
  );
}
