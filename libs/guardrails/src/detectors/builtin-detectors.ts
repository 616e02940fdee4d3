import { type Detector } from '../finding';
import { type PiiKind, type SecretKind } from '../guardrail-kinds';
import { awsSecretKeyDetector } from './detect-aws-secret-key';
import { bearerTokenDetector } from './detect-bearer-token';
import { cardDetector } from './detect-card';
import { emailDetector } from './detect-email';
import { ibanDetector } from './detect-iban';
import { ipv4Detector } from './detect-ipv4';
import { ipv6Detector } from './detect-ipv6';
import { jwtDetector } from './detect-jwt';
import { phoneDetector } from './detect-phone';
import { privateKeyDetector } from './detect-private-key';
import { secretTokensDetector } from './detect-secret-tokens';
import { ssnDetector } from './detect-ssn';

const PII_DETECTORS: Readonly<Record<PiiKind, readonly Detector[]>> = {
  email: [emailDetector],
  phone: [phoneDetector],
  card: [cardDetector],
  iban: [ibanDetector],
  ssn: [ssnDetector],
  ip: [ipv4Detector, ipv6Detector],
};

const SECRET_DETECTORS: Readonly<Record<SecretKind, Detector>> = {
  aws_access_key: secretTokensDetector,
  anthropic_key: secretTokensDetector,
  openai_key: secretTokensDetector,
  google_api_key: secretTokensDetector,
  github_token: secretTokensDetector,
  slack_token: secretTokensDetector,
  stripe_key: secretTokensDetector,
  aws_secret_key: awsSecretKeyDetector,
  private_key: privateKeyDetector,
  bearer_token: bearerTokenDetector,
  jwt: jwtDetector,
};

/** The detectors that find the given PII kinds, each once. */
export function piiDetectors(kinds: readonly PiiKind[]): Detector[] {
  return [...new Set(kinds.flatMap((kind) => PII_DETECTORS[kind]))];
}

/** The detectors that find the given secret kinds, each once (one scanner covers every prefixed key). */
export function secretDetectors(kinds: readonly SecretKind[]): Detector[] {
  return [...new Set(kinds.map((kind) => SECRET_DETECTORS[kind]))];
}
