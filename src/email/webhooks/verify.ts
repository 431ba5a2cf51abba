// Authenticity of webhook calls: an operator token on every endpoint, plus the provider's own
// signature where the provider signs (Mailgun HMAC, SendGrid ECDSA, Amazon SNS RSA).
import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** An Amazon SNS HTTPS message: the fields signed and the ones we read (the signature says which are required per type). */
const SnsMessage = Type.Object({
  Type: Type.String(),
  Message: Type.Optional(Type.String()),
  MessageId: Type.Optional(Type.String()),
  Subject: Type.Optional(Type.String()),
  SubscribeURL: Type.Optional(Type.String()),
  Timestamp: Type.Optional(Type.String()),
  Token: Type.Optional(Type.String()),
  TopicArn: Type.Optional(Type.String()),
  Signature: Type.Optional(Type.String()),
  SignatureVersion: Type.Optional(Type.String()),
  SigningCertURL: Type.Optional(Type.String()),
  SigningCertUrl: Type.Optional(Type.String()),
});
export type SnsMessage = Static<typeof SnsMessage>;
const snsMessage = TypeCompiler.Compile(SnsMessage);

/** Whether a parsed body has the shape of an SNS message. */
export function isSnsMessage(value: unknown): value is SnsMessage {
  return snsMessage.Check(value);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token as a Bearer token, as the password of Basic auth (https://user:token@host/…), or ?token=. */
export function hasOperatorToken(headers: Record<string, unknown>, query: Record<string, unknown>, token: string): boolean {
  const auth = typeof headers.authorization === 'string' ? headers.authorization : '';
  if (auth.startsWith('Bearer ') && sameSecret(auth.slice(7).trim(), token)) return true;
  if (auth.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const password = decoded.slice(decoded.indexOf(':') + 1);
    if (sameSecret(password, token)) return true;
  }
  return typeof query.token === 'string' && sameSecret(query.token, token);
}

/** Mailgun: HMAC-SHA256 of timestamp + token with the webhook signing key, hex. */
export function verifyMailgun(
  signature: { timestamp?: unknown; token?: unknown; signature?: unknown } | undefined,
  signingKey: string,
): boolean {
  if (!signature || typeof signature.signature !== 'string') return false;
  const expected = createHmac('sha256', signingKey)
    .update(`${String(signature.timestamp)}${String(signature.token)}`)
    .digest('hex');
  return sameSecret(signature.signature, expected);
}

/** SendGrid signed event webhook: ECDSA (P-256, SHA-256) over timestamp + raw body; key is base64 DER SPKI. */
export function verifySendgrid(
  rawBody: string,
  signatureB64: string | undefined,
  timestamp: string | undefined,
  publicKeyB64: string,
): boolean {
  if (!signatureB64 || !timestamp) return false;
  try {
    const key = createPublicKey({ key: Buffer.from(publicKeyB64, 'base64'), format: 'der', type: 'spki' });
    return verify('sha256', Buffer.from(timestamp + rawBody), key, Buffer.from(signatureB64, 'base64'));
  } catch {
    return false;
  }
}

const SNS_CERT_URL = /^https:\/\/sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/[^?#]+\.pem$/;

/** The string Amazon SNS signs, per message type. */
export function snsStringToSign(message: Readonly<Record<string, unknown>>): string | null {
  const fields =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', ...(message.Subject !== undefined ? ['Subject'] : []), 'Timestamp', 'TopicArn', 'Type']
      : message.Type === 'SubscriptionConfirmation' || message.Type === 'UnsubscribeConfirmation'
        ? ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type']
        : null;
  if (!fields) return null;
  let text = '';
  for (const field of fields) {
    const value = message[field];
    if (typeof value !== 'string') return null;
    text += `${field}\n${value}\n`;
  }
  return text;
}

export type FetchText = (url: string) => Promise<string>;

export class SnsVerifier {
  private readonly certificates = new Map<string, string>();

  constructor(private readonly fetchText: FetchText) {}

  /** Verifies the RSA signature with the certificate at SigningCertURL (an amazonaws.com https URL only). */
  async verify(message: SnsMessage): Promise<boolean> {
    const text = snsStringToSign(message);
    const url = message.SigningCertURL ?? message.SigningCertUrl;
    if (!text || typeof url !== 'string' || !SNS_CERT_URL.test(url) || typeof message.Signature !== 'string') return false;
    const algorithm = message.SignatureVersion === '2' ? 'sha256' : message.SignatureVersion === '1' ? 'sha1' : null;
    if (!algorithm) return false;
    let pem = this.certificates.get(url);
    if (!pem) {
      pem = await this.fetchText(url);
      if (this.certificates.size > 50) this.certificates.clear();
      this.certificates.set(url, pem);
    }
    try {
      return verify(algorithm, Buffer.from(text), createPublicKey(pem), Buffer.from(message.Signature, 'base64'));
    } catch {
      return false;
    }
  }

  static isConfirmationUrl(url: unknown): url is string {
    return typeof url === 'string' && /^https:\/\/sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\//.test(url);
  }
}
