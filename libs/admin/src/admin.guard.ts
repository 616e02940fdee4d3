import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { AdminTokenService } from './admin-token.service';

@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly tokens: AdminTokenService) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    const match = /^Bearer\s+(.+)$/i.exec(request.headers['authorization'] ?? '');
    if (!match) throw new GatewayError('authentication_error', 'Missing admin token: send Authorization: Bearer <ADMIN_TOKEN>');
    if (!this.tokens.verify(match[1]!.trim())) throw new GatewayError('authentication_error', 'Invalid admin token');
    return true;
  }
}
