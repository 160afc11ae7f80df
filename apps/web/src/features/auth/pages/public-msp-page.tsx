import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { MspAuthFrame } from '../components/msp-auth-frame';

/** `/public/{msp}`: an MSP's public page with its contact details and ways in. */
export function PublicMspPage() {
  const { msp = '' } = useParams();
  return (
    <MspAuthFrame customDomain={msp} title={(mspName) => mspName}>
      {({ customDomain, companyPhoneNumber, webSiteUrl, brand }) => (
        <Stack>
          <Text>
            Phone: <Anchor href={`tel:${companyPhoneNumber.replace(/[^\d+]/g, '')}`}>{companyPhoneNumber}</Anchor>
          </Text>
          <Text>
            Website:{' '}
            {/^https?:\/\//i.test(webSiteUrl) ? (
              // Only http(s) becomes a link: the value is the MSP's own input and could be a javascript: URL.
              <Anchor href={webSiteUrl} target="_blank" rel="noopener noreferrer">
                {webSiteUrl}
              </Anchor>
            ) : (
              webSiteUrl
            )}
          </Text>
          <Button component={Link} to={`/${customDomain}`} color={brand.primaryButtonColour}>
            Sign in
          </Button>
          <Button component={Link} to={`/${customDomain}/activate`} variant="default">
            Activate your account
          </Button>
        </Stack>
      )}
    </MspAuthFrame>
  );
}
