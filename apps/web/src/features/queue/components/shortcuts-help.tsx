import { ActionIcon, Group, Kbd, Popover, Stack, Text } from '@mantine/core';
import { useDisclosure, useWindowEvent } from '@mantine/hooks';

export const QUEUE_SHORTCUTS = [
  { key: 'n', label: 'Get next tickets' },
  { key: 'p', label: 'Pause or resume the timer' },
  { key: 'w', label: 'Write a note' },
  { key: 'c', label: 'Complete the ticket' },
  { key: '[', label: 'Previous ticket' },
  { key: ']', label: 'Next ticket in the list' },
] as const;

/**
 * The keyboard shortcuts of the queue, one click away (they do nothing while typing in a field). Escape closes the list
 * wherever the focus is (it stays on the button, as the list holds nothing to focus).
 */
export function ShortcutsHelp() {
  const [opened, { toggle, close }] = useDisclosure(false);
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  return (
    <Popover position="bottom-end" withArrow shadow="md" opened={opened} onChange={(isOpen) => (isOpen ? undefined : close())}>
      <Popover.Target>
        <ActionIcon variant="default" size="lg" aria-label="Keyboard shortcuts" aria-expanded={opened} onClick={toggle}>
          <span aria-hidden="true">?</span>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} aria-label="Keyboard shortcuts list" role="list">
          <Text fw={600} size="sm">
            Keyboard shortcuts
          </Text>
          {QUEUE_SHORTCUTS.map((shortcut) => (
            <Group key={shortcut.key} gap="sm" role="listitem" wrap="nowrap">
              <Kbd>{shortcut.key.toUpperCase()}</Kbd>
              <Text size="sm">{shortcut.label}</Text>
            </Group>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
