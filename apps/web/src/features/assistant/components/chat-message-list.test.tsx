import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { FEEDBACK_CONFIRMATION_MS, MESSAGES } from '@switchboard/contracts';
import type { TSource } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { isScrolledToBottom } from '../lib/chat-layout';
import { ChatMessageList } from './chat-message-list';
import type { TChatLine } from './chat-message-list';

afterEach(() => vi.useRealTimers());

describe('ChatMessageList', () => {
  it('counts as at the bottom within 10 pixels and not beyond (R-044)', () => {
    expect(isScrolledToBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 590 })).toBe(true);
    expect(isScrolledToBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 589 })).toBe(false);
  });

  it('shows the feedback confirmation for 2 seconds, then hides it (R-254)', async () => {
    vi.useFakeTimers();
    const onFeedback = vi.fn(async () => undefined);
    renderWithProviders(<ChatMessageList label="Chat" lines={[{ key: 'a', messageId: 'm1', role: 'assistant', text: 'Restart the router.' }]} onFeedback={onFeedback} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Helpful answer' }));
    });
    expect(onFeedback).toHaveBeenCalledWith('m1', 'positive');
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.assistant.feedbackSaved);
    act(() => {
      vi.advanceTimersByTime(FEEDBACK_CONFIRMATION_MS - 50);
    });
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.assistant.feedbackSaved);
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('marks the feedback saved on an answer after a reload, and the one chosen now (the saved choice was never shown)', async () => {
    const onFeedback = vi.fn(async () => undefined);
    const lines: TChatLine[] = [
      { key: 'a', messageId: 'm1', role: 'assistant', text: 'Restart the router.', feedback: 'positive' },
      { key: 'b', messageId: 'm2', role: 'assistant', text: 'Replace the cable.', feedback: null },
    ];
    renderWithProviders(<ChatMessageList label="Chat" lines={lines} onFeedback={onFeedback} />);
    const [helpful, secondHelpful] = screen.getAllByRole('button', { name: 'Helpful answer' });
    const [unhelpful, secondUnhelpful] = screen.getAllByRole('button', { name: 'Unhelpful answer' });
    expect(helpful).toHaveAttribute('aria-pressed', 'true');
    expect(unhelpful).toHaveAttribute('aria-pressed', 'false');
    expect(secondHelpful).toHaveAttribute('aria-pressed', 'false');
    expect(secondUnhelpful).toHaveAttribute('aria-pressed', 'false');
    if (!secondUnhelpful) throw new Error('no second answer');
    await act(async () => {
      fireEvent.click(secondUnhelpful);
    });
    expect(secondUnhelpful).toHaveAttribute('aria-pressed', 'true');
    expect(helpful).toHaveAttribute('aria-pressed', 'true');
  });

  it('keeps the reader where they are when they scrolled up, and follows new lines when at the bottom', () => {
    function Harness() {
      const [lines, setLines] = useState<TChatLine[]>([{ key: 'a', messageId: null, role: 'user', text: 'hello' }]);
      return (
        <>
          <button type="button" onClick={() => setLines((current) => [...current, { key: String(current.length), messageId: null, role: 'assistant', text: 'new answer' }])}>
            add
          </button>
          <ChatMessageList label="Chat" lines={lines} />
        </>
      );
    }
    renderWithProviders(<Harness />);
    const log = screen.getByRole('log', { name: 'Chat' });
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, value: 400 });
    log.scrollTop = 100;
    fireEvent.scroll(log);
    fireEvent.click(screen.getByRole('button', { name: 'add' }));
    expect(log.scrollTop).toBe(100);
    log.scrollTop = 595;
    fireEvent.scroll(log);
    fireEvent.click(screen.getByRole('button', { name: 'add' }));
    expect(log.scrollTop).toBe(1000);
  });

  it('loads older messages above the conversation and keeps the reader on the message they were reading (R-255)', () => {
    const line = (key: string, text: string): TChatLine => ({ key, messageId: null, role: 'user', text });
    function Harness() {
      const [lines, setLines] = useState<TChatLine[]>([line('b', 'newer question')]);
      return <ChatMessageList label="Chat" lines={lines} olderMessages={{ hasMore: lines.length === 1, isLoading: false, error: null, onShow: () => setLines((current) => [line('a', 'older question'), ...current]) }} />;
    }
    let height = 1000;
    const scrollHeight = vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(() => height);
    const clientHeight = vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(() => 400);
    try {
      renderWithProviders(<Harness />);
      const log = screen.getByRole('log', { name: 'Chat' });
      const older = screen.getByRole('button', { name: 'Show older messages' });
      expect(older.compareDocumentPosition(screen.getByText('newer question')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      log.scrollTop = 0;
      fireEvent.scroll(log);
      // The older message adds 600 px above: the reader is moved down by as much, so what they read stays put.
      height = 1600;
      fireEvent.click(older);
      expect(screen.getByText('older question')).toBeInTheDocument();
      expect(log.scrollTop).toBe(600);
      expect(screen.queryByRole('button', { name: 'Show older messages' })).not.toBeInTheDocument();
    } finally {
      scrollHeight.mockRestore();
      clientHeight.mockRestore();
    }
  });

  it('says when older messages could not be loaded, and leaves the button to try again', () => {
    const onShow = vi.fn();
    renderWithProviders(<ChatMessageList label="Chat" lines={[{ key: 'a', messageId: null, role: 'user', text: 'hello' }]} olderMessages={{ hasMore: true, isLoading: false, error: 'The service is busy.', onShow }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The older messages could not be loaded. The service is busy.');
    fireEvent.click(screen.getByRole('button', { name: 'Show older messages' }));
    expect(onShow).toHaveBeenCalledTimes(1);
  });
});

describe('ChatMessageList sources', () => {
  const footer = 'Verify identity by callback and unlock the account. [1]\n\nSources:\n[1] Knowledge article: Finding the source of repeated account lockouts — Steps\n';

  it('lists an answer\'s sources once: no chips under an answer that ends with its own numbered list', () => {
    renderWithProviders(<ChatMessageList label="Chat" lines={[{ key: 'a', messageId: null, role: 'assistant', text: footer, sources: ['Finding the source of repeated account lockouts — Steps'] }]} />);
    expect(screen.getAllByText(/Finding the source of repeated account lockouts/)).toHaveLength(1);
  });

  it('shows the chips when the answer names no sources itself', () => {
    renderWithProviders(<ChatMessageList label="Chat" lines={[{ key: 'a', messageId: null, role: 'assistant', text: 'Restart the router.', sources: ['Router basics'] }]} />);
    expect(screen.getByText('Router basics')).toBeInTheDocument();
  });
});

// Review s28 #2: while a model's answer streamed, its raw [S1], [S2] citations showed until the final answer replaced
// them with [1], [2] and a Sources list.
describe('ChatMessageList while an answer streams', () => {
  const title = 'Resetting a password in the admin portal';
  // The model's text as it arrives (a marker split across deltas), then the server's Sources list.
  const streamed = [
    'Reset the password ',
    'Reset the password from the admin portal [',
    'Reset the password from the admin portal [S',
    'Reset the password from the admin portal [S2',
    'Reset the password from the admin portal [S2]. Then unlock it [S1',
    'Reset the password from the admin portal [S2]. Then unlock it [S1] and sign in [S2].',
    `Reset the password from the admin portal [S2]. Then unlock it [S1] and sign in [S2].\n\nSources:\n[1] Knowledge article: ${title}\n[2] Document: Unlocking accounts\n`,
  ];
  // The stored answer the server gives at the end (its citations renumbered in the order first cited).
  const final = `Reset the password from the admin portal [1]. Then unlock it [2] and sign in [1].\n\nSources:\n[1] Knowledge article: ${title}\n[2] Document: Unlocking accounts\n`;
  const answerLine = (text: string, isStreaming: boolean): TChatLine => ({ key: 'answer', messageId: isStreaming ? null : 'm1', role: 'assistant', text, isStreaming });

  it('never shows a literal [S1] marker, numbers the citations as the final answer does, and nothing changes when it arrives', () => {
    let showLine: (line: TChatLine) => void = () => undefined;
    function Harness() {
      const [line, setLine] = useState(answerLine('', true));
      showLine = setLine;
      return <ChatMessageList label="Chat" lines={[line]} />;
    }
    renderWithProviders(<Harness />);
    const log = screen.getByRole('log', { name: 'Chat' });
    const shown: string[] = [];
    for (const text of streamed) {
      act(() => showLine(answerLine(text, true)));
      const answerText = log.textContent ?? '';
      expect(answerText).not.toMatch(/\[S\d*\]?|\[$/);
      shown.push(answerText);
    }
    expect(shown[3]).toContain('Reset the password from the admin portal');
    expect(shown[4]).toContain('admin portal [1]. Then unlock it');
    const lastStreamed = shown.at(-1)?.replace(' · writing…', '');
    act(() => showLine(answerLine(final, false)));
    expect(log.textContent).toBe(lastStreamed);
    expect(log.textContent).toContain('admin portal [1]. Then unlock it [2] and sign in [1].');
  });

  it('numbers the citations of an answer stopped half way too', () => {
    renderWithProviders(<ChatMessageList label="Chat" lines={[{ key: 'answer', messageId: null, role: 'assistant', text: 'Unlock it [S3] and then [S', isStopped: true }]} />);
    const log = screen.getByRole('log', { name: 'Chat' });
    expect(log).toHaveTextContent('Unlock it [1] and then');
    expect(log.textContent).not.toContain('[S');
  });
});

// Review s28 fix #2: the streamed words numbered [S1], [S2], [S3] 1, 2, 3 in order of use, the stored answer by the source
// behind them (passages of one article share it), so "[1] … [2] … [3]" became "[1] … [1] … [2]" when the answer arrived.
describe('ChatMessageList numbers a streamed answer by the source behind each citation', () => {
  const lockouts: TSource = { kind: 'article', id: 'a1', title: 'Account lockouts — Find the source', reference: null };
  const lockoutsSteps: TSource = { ...lockouts, title: 'Account lockouts — Steps' };
  const unlocking: TSource = { kind: 'document', id: 'd1', title: 'Unlocking accounts', reference: 'unlocking.pdf' };
  // What the stream's `sources` event says: S1 and S2 are passages of one article, S3 is a document.
  const passages = [lockouts, lockoutsSteps, unlocking];
  const streamed = [
    'Find the locking device [S1',
    'Find the locking device [S1]. Clear its saved password [S2',
    'Find the locking device [S1]. Clear its saved password [S2]. Then unlock the account [S3].',
    'Find the locking device [S1]. Clear its saved password [S2]. Then unlock the account [S3].\n\nSources:\n[1] Knowledge article: Account lockouts — Find the source\n[2] Document: Unlocking accounts\n',
  ];
  const final = 'Find the locking device [1]. Clear its saved password [1]. Then unlock the account [2].\n\nSources:\n[1] Knowledge article: Account lockouts — Find the source\n[2] Document: Unlocking accounts\n';

  it('shows while streaming the numbers the stored answer has, so none change when it arrives', () => {
    let showLine: (line: TChatLine) => void = () => undefined;
    function Harness() {
      const [line, setLine] = useState<TChatLine>({ key: 'answer', messageId: null, role: 'assistant', text: '', isStreaming: true, passages });
      showLine = setLine;
      return <ChatMessageList label="Chat" lines={[line]} />;
    }
    renderWithProviders(<Harness />);
    const log = screen.getByRole('log', { name: 'Chat' });
    const shown: string[] = [];
    for (const text of streamed) {
      act(() => showLine({ key: 'answer', messageId: null, role: 'assistant', text, isStreaming: true, passages }));
      shown.push((log.textContent ?? '').replace(' · writing…', ''));
    }
    expect(shown[1]).toContain('Find the locking device [1]. Clear its saved password');
    expect(shown[2]).toContain('Find the locking device [1]. Clear its saved password [1]. Then unlock the account [2].');
    act(() => showLine({ key: 'answer', messageId: 'm1', role: 'assistant', text: final }));
    // Every streamed view is the start of what the stored answer shows: no number changed at the end.
    for (const view of shown) expect(log.textContent?.startsWith(view.replace(/\s+$/, ''))).toBe(true);
    expect(log.textContent).toBe(shown.at(-1));
  });

  it('a stopped answer keeps those numbers and lists the sources it cited', () => {
    const text = 'Unlock the account [S3]. Then find the locking device [S2] and [S';
    renderWithProviders(<ChatMessageList label="Chat" lines={[{ key: 'answer', messageId: null, role: 'assistant', text, isStopped: true, passages }]} />);
    const log = screen.getByRole('log', { name: 'Chat' });
    expect(log).toHaveTextContent('Unlock the account [1]. Then find the locking device [2] and');
    expect(log.textContent).not.toContain('[S');
    // The list names the source as its first cited passage does, as the stored answer would.
    expect(log).toHaveTextContent('Sources: [1] Document: Unlocking accounts [2] Knowledge article: Account lockouts — Steps');
  });

  it('a stopped answer that cited nothing adds no list', () => {
    renderWithProviders(<ChatMessageList label="Chat" lines={[{ key: 'answer', messageId: null, role: 'assistant', text: 'Restart the computer and', isStopped: true, passages }]} />);
    expect(screen.getByRole('log', { name: 'Chat' }).textContent).not.toContain('Sources');
  });
});
