import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GatewayError } from '@rosetta/canonical';
import type { ApiKeyRecord } from './api-key.record';
import type { CredentialSources } from '@rosetta/protocols/common';
import { missingKeyMessage, refusedKeyMessage } from './describe-credential';
import { extractCredential, type CredentialSource } from './extract-credential';
import { IS_PUBLIC } from './public.decorator';
import { KeyCacheService } from './key-cache.service';

export interface AuthenticatedRequest extends CredentialSource {
  apiKey?: ApiKeyRecord;
}

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyCacheService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.apiKey = await authenticate(this.keys, request);
    return true;
  }
}

/**
 * The key a request presents (also in `extra`, where its dialect's clients send it), checked; the
 * 401 `authentication_error` otherwise, saying what was received and where this route takes the key.
 */
export async function authenticate(keys: KeyCacheService, source: CredentialSource, extra?: CredentialSources): Promise<ApiKeyRecord> {
  const credential = extractCredential(source, extra);
  if (!credential) throw new GatewayError('authentication_error', missingKeyMessage(source, extra));
  const result = await keys.check(credential);
  if (!result.ok) throw new GatewayError('authentication_error', refusedKeyMessage(credential, result.reason));
  return result.key;
}
