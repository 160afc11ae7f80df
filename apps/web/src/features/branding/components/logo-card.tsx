import { useEffect, useRef, useState } from 'react';
import { Alert, Button, FileInput, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { LOGO_MAX_BYTES, LOGO_TYPES, MESSAGES } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useMspProfile } from '../../../app/brand/msp-profile-queries';
import { useSaveLogo } from '../api/branding-queries';
import { READABLE_FILE_INPUT_STYLES } from '../../employees/form-styles';

/** R-091's checks before anything is sent: the same words the server answers with. */
function logoProblem(file: File): string | null {
  if (file.size === 0) return MESSAGES.fileMissing;
  if (file.size > LOGO_MAX_BYTES) return MESSAGES.fileSize;
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return MESSAGES.fileType;
  return null;
}

/** The brand logo: the current one, a new one previewed before it is saved, and what went wrong in plain words. */
export function LogoCard({ mspCustomDomain, mspName }: { mspCustomDomain: string; mspName: string }) {
  const profile = useMspProfile(mspCustomDomain);
  const saveLogo = useSaveLogo(mspCustomDomain);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const currentUrl = profile.data?.logoUrl ?? null;

  // The preview is a local object URL, released when the choice changes or the card closes.
  const previewRef = useRef<string | null>(null);
  useEffect(() => () => showPreview(null), []);

  function showPreview(chosen: File | null) {
    if (previewRef.current) URL.revokeObjectURL(previewRef.current);
    previewRef.current = chosen ? URL.createObjectURL(chosen) : null;
    setPreviewUrl(previewRef.current);
  }

  function handleChoose(chosen: File | null) {
    saveLogo.reset();
    const chosenProblem = chosen ? logoProblem(chosen) : null;
    setFile(chosen);
    setProblem(chosenProblem);
    showPreview(chosenProblem === null ? chosen : null);
  }

  function handleSave() {
    if (!file) {
      setProblem(MESSAGES.fileMissing);
      return;
    }
    saveLogo.mutate(file, {
      onSuccess: () => {
        setFile(null);
        showPreview(null);
        notifications.show({ color: 'green', title: 'Logo saved', message: 'Your new logo now shows in the header and on your sign-in page.' });
      },
    });
  }

  const error = problem ?? (saveLogo.isError ? errorDetail(saveLogo.error) : null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="logo-title">
      <Stack gap="sm">
        <Title order={3} id="logo-title">
          Logo
        </Title>
        <Group align="flex-start" gap="xl">
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Current logo
            </Text>
            {currentUrl ? <Image src={currentUrl} alt={`${mspName} logo`} h={64} w="auto" maw={240} fit="contain" /> : <Text size="sm" c="dimmed">No logo yet: the header shows your MSP’s name only.</Text>}
          </Stack>
          {previewUrl ? (
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                New logo (not saved yet)
              </Text>
              <Image src={previewUrl} alt="Preview of the new logo" h={64} w="auto" maw={240} fit="contain" />
            </Stack>
          ) : null}
        </Group>
        <FileInput
          label="New logo"
          description="PNG, JPEG, GIF, SVG or WebP, up to 2 MB. It shows in the header and on your sign-in page."
          placeholder="Choose an image"
          accept={LOGO_TYPES.join(',')}
          clearable
          value={file}
          onChange={handleChoose}
          maw={420}
          styles={READABLE_FILE_INPUT_STYLES}
        />
        {error ? (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button onClick={handleSave} loading={saveLogo.isPending} disabled={file === null || problem !== null}>
            Save logo
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
