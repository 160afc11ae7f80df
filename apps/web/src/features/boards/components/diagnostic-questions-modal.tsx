import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { DIAGNOSTIC_QUESTION_MAX_CHARS, DIAGNOSTIC_QUESTIONS_PER_SUBTYPE, MESSAGES, type TDiagnosticQuestionList } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useDiagnosticQuestions, useSaveDiagnosticQuestions } from '../api/boards-queries';

type TDraftQuestion = { key: number; id?: string; text: string };

/** The first problem of a question, in the same words the server uses. */
function problemOf(text: string, others: TDraftQuestion[]): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return MESSAGES.diagnosticQuestions.questionRequired;
  if (trimmed.length > DIAGNOSTIC_QUESTION_MAX_CHARS) return MESSAGES.diagnosticQuestions.questionTooLong;
  const normalised = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();
  if (others.some((other) => normalised(other.text) === normalised(text))) return MESSAGES.diagnosticQuestions.duplicate;
  return null;
}

function QuestionListEditor({ msp, list, onClose }: { msp: string; list: TDiagnosticQuestionList; onClose: () => void }) {
  const [questions, setQuestions] = useState<TDraftQuestion[]>(() => list.questions.map((question, index) => ({ key: index, id: question.id, text: question.text })));
  const [nextKey, setNextKey] = useState(list.questions.length);
  const [isChecked, setIsChecked] = useState(false);
  const [isSaved, setIsSaved] = useState(false);
  const save = useSaveDiagnosticQuestions(msp);
  const problems = questions.map((question, index) => problemOf(question.text, questions.slice(0, index)));
  const isFull = questions.length >= DIAGNOSTIC_QUESTIONS_PER_SUBTYPE;

  function handleChange(key: number, text: string) {
    setIsSaved(false);
    setQuestions((current) => current.map((question) => (question.key === key ? { ...question, text } : question)));
  }
  function handleAdd() {
    setIsSaved(false);
    setQuestions((current) => [...current, { key: nextKey, text: '' }]);
    setNextKey((key) => key + 1);
  }
  function handleRemove(key: number) {
    setIsSaved(false);
    setQuestions((current) => current.filter((question) => question.key !== key));
  }
  async function handleSave() {
    setIsChecked(true);
    if (problems.some((problem) => problem !== null)) return;
    try {
      const saved = await save.mutateAsync({ typeId: list.typeId, subTypeId: list.subTypeId, questions: questions.map((question) => ({ ...(question.id ? { id: question.id } : {}), text: question.text.trim() })) });
      setQuestions(saved.questions.map((question, index) => ({ key: nextKey + index, id: question.id, text: question.text })));
      setNextKey((key) => key + saved.questions.length);
      setIsChecked(false);
      setIsSaved(true);
    } catch {
      // The alert below shows the server's message.
    }
  }

  return (
    <Stack>
      <Text size="sm">
        {list.isDefault
          ? 'These are the suggested questions. Jarvis asks a client the ones that best tell this subcategory apart from the others. Change them to match how your clients describe problems.'
          : 'Jarvis asks a client the ones that best tell this subcategory apart from the others.'}
      </Text>
      {questions.length === 0 && (
        <Text size="sm" c="dimmed">
          No questions yet. Without any, Jarvis asks whether the request is about {list.subTypeName}.
        </Text>
      )}
      {questions.map((question, index) => (
        <Group key={question.key} align="flex-start" gap="xs" wrap="nowrap">
          <Textarea
            style={{ flex: 1 }}
            autosize
            minRows={1}
            maxRows={4}
            aria-label={`Question ${index + 1}`}
            value={question.text}
            maxLength={DIAGNOSTIC_QUESTION_MAX_CHARS + 20}
            error={isChecked ? problems[index] : null}
            onChange={(event) => handleChange(question.key, event.currentTarget.value)}
          />
          <Button variant="subtle" color="red" aria-label={`Remove question ${index + 1}`} onClick={() => handleRemove(question.key)}>
            Remove
          </Button>
        </Group>
      ))}
      <Group justify="space-between" align="center">
        <Button variant="light" onClick={handleAdd} disabled={isFull}>
          Add question
        </Button>
        {isFull && (
          <Text size="xs" c="dimmed">
            {MESSAGES.diagnosticQuestions.tooMany}
          </Text>
        )}
      </Group>
      {save.isError && (
        <Alert color="red" role="alert">
          {errorDetail(save.error)}
        </Alert>
      )}
      {isSaved && (
        <Alert color="green" role="status">
          {MESSAGES.diagnosticQuestions.saved}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button loading={save.isPending} onClick={() => void handleSave()}>
          Save questions
        </Button>
      </Group>
    </Stack>
  );
}

/** The board editor's "Diagnostic questions" of one saved subcategory (issue #9). */
export function DiagnosticQuestionsModal({
  msp,
  typeId,
  subTypeId,
  name,
  isOpen,
  onClose,
}: {
  msp: string;
  typeId: number;
  subTypeId: number;
  name: string;
  isOpen: boolean;
  onClose: () => void;
}) {
  const list = useDiagnosticQuestions(msp, typeId, subTypeId, isOpen);
  return (
    <Modal opened={isOpen} onClose={onClose} title={`Diagnostic questions: ${name}`} size="lg">
      {list.isPending && <Loader size="sm" aria-label="Loading questions" />}
      {list.isError && (
        <Alert color="red" role="alert">
          {errorDetail(list.error)}
        </Alert>
      )}
      {list.data && <QuestionListEditor key={`${list.data.typeId}/${list.data.subTypeId}`} msp={msp} list={list.data} onClose={onClose} />}
    </Modal>
  );
}
