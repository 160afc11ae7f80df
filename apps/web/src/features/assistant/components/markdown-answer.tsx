import ReactMarkdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { Typography } from '@mantine/core';

/**
 * An assistant answer as markdown. react-markdown builds React elements (never innerHTML), raw HTML
 * in the text is not interpreted (skipHtml), and rehype-sanitize's GitHub schema drops what is left
 * of unsafe attributes and javascript: links, so an answer can never run script in the page.
 */
export function MarkdownAnswer({ text }: { text: string }) {
  return (
    <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} skipHtml>
        {text}
      </ReactMarkdown>
    </Typography>
  );
}
