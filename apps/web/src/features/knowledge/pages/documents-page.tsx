import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Badge, Button, FileInput, Group, Loader, NativeSelect, Paper, Radio, Stack, Table, Text, Textarea, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { DOCUMENT_DESCRIPTION_MAX, KNOWLEDGE_AUDIENCE_LABELS, KNOWLEDGE_AUDIENCES, MESSAGES, type TApplication, type TKnowledgeAudience } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { formatWhen } from '../../../lib/format-when';
import { READABLE_FILE_INPUT_STYLES } from '../../employees/form-styles';
import { documentFileUrl, useDeleteDocument, useDocuments, useSetDocumentReaders, useUploadDocument } from '../api/knowledge-queries';
import { DOCUMENT_ACCEPT, documentProblem, formatBytes } from '../lib/document-rules';
import { KnowledgeBase } from '../components/knowledge-base';
import { useDocumentTitle } from '../../../lib/use-document-title';

const isAudience = (value: string): value is TKnowledgeAudience => (KNOWLEDGE_AUDIENCES as readonly string[]).includes(value);

/** A page with a folded corner: marks the file picker as one. */
function FileIcon() {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z" />
      <path d="M14 3v6h6" />
    </svg>
  );
}

/** Who may read a document: a technician changes it in place (decision 034); others read it. */
function DocumentReaders({ document, mspCustomDomain, canChoose }: { document: TApplication; mspCustomDomain: string; canChoose: boolean }) {
  const setReaders = useSetDocumentReaders(mspCustomDomain);
  if (!canChoose) return <>{KNOWLEDGE_AUDIENCE_LABELS[document.audience]}</>;
  return (
    <NativeSelect
      size="xs"
      aria-label={`Readers of ${document.fileName}`}
      data={KNOWLEDGE_AUDIENCES.map((value) => ({ value, label: KNOWLEDGE_AUDIENCE_LABELS[value] }))}
      value={document.audience}
      disabled={setReaders.isPending}
      onChange={(event) => {
        const audience = event.currentTarget.value;
        if (!isAudience(audience)) return;
        setReaders.mutate(
          { documentId: document.id, audience },
          {
            onSuccess: (saved) => notifications.show({ color: 'green', title: 'Readers changed', message: `${saved.fileName}: ${KNOWLEDGE_AUDIENCE_LABELS[saved.audience].toLowerCase()}` }),
            onError: (error) => notifications.show({ color: 'red', title: 'The readers could not be changed', message: errorDetail(error) }),
          },
        );
      }}
    />
  );
}

/** Download (a plain link: the server sends the file as an attachment) and, where allowed, delete. */
function DocumentActions({ document, mspCustomDomain, onDelete }: { document: TApplication; mspCustomDomain: string; onDelete: (document: TApplication) => void }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button component="a" href={documentFileUrl(mspCustomDomain, document.id)} download={document.fileName} variant="light" size="xs" aria-label={`Download ${document.fileName}`}>
        Download
      </Button>
      {document.canDelete && (
        <Button variant="subtle" color="red" size="xs" onClick={() => onDelete(document)} aria-label={`Delete ${document.fileName}`}>
          Delete
        </Button>
      )}
    </Group>
  );
}


/**
 * Tools and documents: upload a PDF, Word, Markdown or text file with a description; Jarvis searches its text.
 * A technician with `mspDocuments` says who may read it (decision 034: technicians only unless they share it); one without it
 * uploads nothing (a technician's upload is for the whole MSP); a client user's upload is for their company. A client user
 * (`isForClient`) reads whom their uploads are for, and finds the Knowledge Base in their ticket area instead (review s29 #4).
 */
export function DocumentsPage({ mspCustomDomain, canChooseAudience, canUpload = true, isForClient = false }: { mspCustomDomain: string; canChooseAudience: boolean; canUpload?: boolean; isForClient?: boolean }) {
  useDocumentTitle('Documents');
  const documents = useDocuments(mspCustomDomain);
  const upload = useUploadDocument(mspCustomDomain);
  const deleteDocument = useDeleteDocument(mspCustomDomain);
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const [audience, setAudience] = useState<TKnowledgeAudience>('technicians');
  const [problem, setProblem] = useState<string | null>(null);
  const isNarrow = useMediaQuery('(max-width: 48em)') === true;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = documentProblem(file, description);
    setProblem(found);
    if (found !== null || !file) return;
    upload.mutate(
      { file, description: description.trim(), ...(canChooseAudience ? { audience } : {}) },
      {
        onSuccess: (document) => {
          notifications.show({ color: 'green', title: MESSAGES.documents.uploaded, message: `${document.fileName}: ${document.chunkCount} searchable passage${document.chunkCount === 1 ? '' : 's'}` });
          setFile(null);
          setDescription('');
        },
      },
    );
  }

  function handleDelete(document: TApplication) {
    modals.openConfirmModal({
      title: `Delete ${document.fileName}?`,
      children: <Text size="sm">The file is removed and Jarvis no longer uses its text. This cannot be undone.</Text>,
      labels: { confirm: 'Delete document', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deleteDocument.mutate(document.id, {
          onSuccess: () => notifications.show({ color: 'green', title: MESSAGES.documents.deleted, message: document.fileName }),
          onError: (error) => notifications.show({ color: 'red', title: 'The document could not be deleted', message: errorDetail(error) }),
        }),
    });
  }

  const items = documents.data ?? [];
  return (
    <Stack component="section" aria-labelledby="documents-title">
      <Title order={1} size="h2" id="documents-title">
        Documents
      </Title>
      {isForClient && (
        <Text size="sm" c="dimmed">
          {MESSAGES.documents.clientIntro}
        </Text>
      )}
      {!canUpload && (
        <Text size="sm" c="dimmed">
          {MESSAGES.documents.mspDocumentsNeeded}
        </Text>
      )}
      {canUpload && (
        <Paper withBorder p="md">
          <form onSubmit={handleSubmit} noValidate aria-label="Upload a document">
            <Stack gap="sm">
              {/* A picker, not a text box: its hint is the description (as the placeholder it was cut off on a phone). */}
              <FileInput
                label="File"
                placeholder="Choose a file"
                description="PDF, Word (.docx), Markdown or text, up to 10 MB"
                leftSection={<FileIcon />}
                accept={DOCUMENT_ACCEPT}
                value={file}
                onChange={setFile}
                clearable
                error={problem ?? undefined}
                styles={READABLE_FILE_INPUT_STYLES}
              />
              <Textarea label="Description" autosize minRows={2} maxRows={5} maxLength={DOCUMENT_DESCRIPTION_MAX} value={description} onChange={(event) => setDescription(event.currentTarget.value)} />
              {canChooseAudience && (
                <Radio.Group label="Who can read it" description="Jarvis uses it only for the people who may read it." value={audience} onChange={(value) => isAudience(value) && setAudience(value)}>
                  <Group gap="lg" mt={6}>
                    {KNOWLEDGE_AUDIENCES.map((value) => (
                      <Radio key={value} value={value} label={KNOWLEDGE_AUDIENCE_LABELS[value]} />
                    ))}
                  </Group>
                </Radio.Group>
              )}
              {upload.isError && (
                <Alert color="red" role="alert">
                  {errorDetail(upload.error)}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button type="submit" loading={upload.isPending}>
                  Upload
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
      {documents.isPending && <Loader aria-label="Loading documents" />}
      {documents.isError && (
        <Alert color="red" role="alert">
          {errorDetail(documents.error)}
        </Alert>
      )}
      {documents.data && items.length === 0 && <Text c="dimmed">{isForClient ? MESSAGES.documents.clientNone : 'No documents yet. Upload your runbooks and guides so Jarvis can use them.'}</Text>}
      {items.length > 0 && !isNarrow && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Uploaded documents">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">File</Table.Th>
                <Table.Th scope="col">Description</Table.Th>
                <Table.Th scope="col">Size</Table.Th>
                <Table.Th scope="col">Passages</Table.Th>
                <Table.Th scope="col">Readers</Table.Th>
                <Table.Th scope="col">Uploaded</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((document) => (
                <Table.Tr key={document.id}>
                  <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {document.fileName}
                  </Table.Th>
                  <Table.Td>{document.description === '' ? '—' : document.description}</Table.Td>
                  <Table.Td>{formatBytes(document.sizeBytes)}</Table.Td>
                  <Table.Td>{document.chunkCount}</Table.Td>
                  <Table.Td>
                    <DocumentReaders document={document} mspCustomDomain={mspCustomDomain} canChoose={canChooseAudience} />
                  </Table.Td>
                  <Table.Td>{formatWhen(document.createdAt)}</Table.Td>
                  <Table.Td>
                    <DocumentActions document={document} mspCustomDomain={mspCustomDomain} onDelete={handleDelete} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {items.length > 0 && isNarrow && (
        <Stack gap="xs" component="ul" aria-label="Uploaded documents" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((document) => (
            <Paper key={document.id} component="li" withBorder p="sm">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {document.fileName}
              </Text>
              {document.description !== '' && <Text size="sm">{document.description}</Text>}
              <Group gap="xs" mt={4}>
                <Badge variant="light" color="gray">
                  {formatBytes(document.sizeBytes)}
                </Badge>
                <Badge variant="light" color="gray">
                  {document.chunkCount} passage{document.chunkCount === 1 ? '' : 's'}
                </Badge>
                {!canChooseAudience && (
                  <Badge variant="light" color="gray">
                    {KNOWLEDGE_AUDIENCE_LABELS[document.audience]}
                  </Badge>
                )}
              </Group>
              {canChooseAudience && (
                <Group mt="xs">
                  <DocumentReaders document={document} mspCustomDomain={mspCustomDomain} canChoose />
                </Group>
              )}
              <Group mt="xs">
                <DocumentActions document={document} mspCustomDomain={mspCustomDomain} onDelete={handleDelete} />
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {!isForClient && (
        <Paper withBorder p="md">
          <KnowledgeBase mspCustomDomain={mspCustomDomain} />
        </Paper>
      )}
    </Stack>
  );
}
