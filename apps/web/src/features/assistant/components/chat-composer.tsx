import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import { ActionIcon, Group, Textarea } from '@mantine/core';
import { TEXT_AREA_HEIGHT_PX } from '../lib/chat-layout';

type TChatComposerProps = {
  label: string;
  placeholder: string;
  isSending: boolean;
  onSend: (text: string) => void;
  /** Told every change of the text (what the box holds, for the prompt generator). */
  onTextChange?: (text: string) => void;
  disabled?: boolean;
};

/**
 * The message box: starts one line high (24 px, R-045) and grows with the text; Enter sends,
 * Shift+Enter breaks the line. A blank message is never sent.
 */
export function ChatComposer({ label, placeholder, isSending, onSend, onTextChange, disabled = false }: TChatComposerProps) {
  const [text, setStoredText] = useState('');
  const canSend = text.trim() !== '' && !isSending && !disabled;

  function setText(value: string) {
    setStoredText(value);
    onTextChange?.(value);
  }

  function send() {
    if (!canSend) return;
    onSend(text.trim());
    setText('');
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  }

  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Textarea
        aria-label={label}
        placeholder={placeholder}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={handleKeyDown}
        autosize
        minRows={1}
        maxRows={8}
        maxLength={4000}
        disabled={disabled}
        style={{ flex: 1 }}
        styles={{ input: { minHeight: TEXT_AREA_HEIGHT_PX, paddingTop: 2, paddingBottom: 2, lineHeight: `${TEXT_AREA_HEIGHT_PX - 4}px` } }}
      />
      <ActionIcon size="lg" variant="filled" aria-label="Send message" onClick={send} disabled={!canSend} loading={isSending}>
        <span aria-hidden="true">➤</span>
      </ActionIcon>
    </Group>
  );
}
