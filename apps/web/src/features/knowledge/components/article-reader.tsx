import { Alert, Loader, Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { errorDetail } from '../../../lib/api-client';
import { MarkdownAnswer } from '../../assistant/components/markdown-answer';
import { useKnowledgeArticle } from '../api/knowledge-queries';

/** "Accounts & Access › Password Reset", or null for an article filed under no category. */
export function articleCategoryOf(article: { typeName: string | null; subTypeName: string | null }): string | null {
  if (article.typeName === null) return null;
  return article.subTypeName === null ? article.typeName : `${article.typeName} › ${article.subTypeName}`;
}

/** One knowledge-base article to read whole (its markdown rendered sanitized); full screen on a phone. */
export function ArticleReader({ mspCustomDomain, articleId, onClose }: { mspCustomDomain: string; articleId: string | null; onClose: () => void }) {
  const article = useKnowledgeArticle(mspCustomDomain, articleId);
  const isPhone = useMediaQuery('(max-width: 48em)') === true;
  const category = article.data ? articleCategoryOf(article.data) : null;
  return (
    <Modal
      opened={articleId !== null}
      onClose={onClose}
      title={
        <Text component="span" fw={700} size="lg">
          {article.data?.title ?? 'Article'}
        </Text>
      }
      size="lg"
      fullScreen={isPhone}
    >
      {article.isPending && <Loader size="sm" aria-label="Loading the article" />}
      {article.isError && (
        <Alert color="red" role="alert">
          {errorDetail(article.error)}
        </Alert>
      )}
      {article.data && (
        <>
          {category !== null && (
            <Text size="sm" c="dimmed" mb="xs">
              {category}
            </Text>
          )}
          <MarkdownAnswer text={article.data.body} />
        </>
      )}
    </Modal>
  );
}
