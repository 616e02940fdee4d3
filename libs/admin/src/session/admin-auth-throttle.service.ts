import { Inject, Injectable } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { APP_LOGGER, forwardedClient, REDIS_CLIENT, ROSETTA_CONFIG, trustedProxyList, type AppLogger, type RedisClient, type RosettaConfig } from '@rosetta/platform';
import type { BlockList } from 'node:net';
import { requestHeader, type AdminRequest } from './admin-actor';
import { SignInThrottle } from './sign-in-throttle';

const LIMIT = 10;
const WINDOW_MS = 5 * 60_000;
const KEY_PREFIX = 'rosetta:admin-auth-failures:';

/**
 * Failed admin authentications — a wrong token at dashboard sign-in, or a wrong bearer token on
 * the admin API — per client address: after ten within five minutes, that address is refused
 * (429) until the window ends. Counted in Redis when the gateway has it, so a guesser spread over
 * replicas is counted once; in this process otherwise, or while Redis does not answer. The client
 * address believes `X-Forwarded-For` only from `TRUSTED_PROXIES` (issue 26).
 */
@Injectable()
export class AdminAuthThrottle {
  private readonly local = new SignInThrottle(LIMIT, WINDOW_MS);
  private readonly trusted: BlockList;

  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null,
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    this.trusted = trustedProxyList(config.trustedProxies);
  }

  /** The client's address: the peer, or what a trusted proxy forwarded for it. */
  address(req: AdminRequest): string {
    return forwardedClient(req.socket?.remoteAddress, requestHeader(req, 'x-forwarded-for'), this.trusted) ?? 'unknown';
  }

  /** Where a request came from, as the audit log and sessions record it: `client (via proxy)` behind a trusted proxy. */
  where(req: AdminRequest): string | undefined {
    const peer = req.socket?.remoteAddress;
    const client = this.address(req);
    return client !== peer && client !== 'unknown' ? `${client} (via ${peer ?? 'unknown'})` : peer;
  }

  /** Throws the 429 when the client's address has failed too often; otherwise its address. */
  async check(req: AdminRequest, what: string): Promise<string> {
    const address = this.address(req);
    const wait = await this.waitMs(address);
    if (wait > 0) throw new GatewayError('rate_limit_error', `Too many failed ${what} from this address: try again in ${Math.ceil(wait / 1000)} s`, { retryAfterMs: wait });
    return address;
  }

  async failed(address: string): Promise<void> {
    this.local.failed(address);
    if (!this.redis) return;
    const key = KEY_PREFIX + address;
    await this.redis
      .multi()
      .incr(key)
      .pexpire(key, WINDOW_MS, 'NX')
      .exec()
      .catch((error: Error) => this.logger.warn({ err: error.message }, 'admin auth throttle: Redis unavailable; counting in this process'));
  }

  async succeeded(address: string): Promise<void> {
    this.local.succeeded(address);
    await this.redis?.del(KEY_PREFIX + address).catch(() => undefined);
  }

  private async waitMs(address: string): Promise<number> {
    const local = this.local.waitMs(address);
    if (!this.redis) return local;
    try {
      const [[, count], [, ttl]] = (await this.redis.multi().get(KEY_PREFIX + address).pttl(KEY_PREFIX + address).exec()) as [[unknown, string | null], [unknown, number]];
      return Number(count ?? 0) >= LIMIT ? Math.max(ttl, 1) : local;
    } catch {
      return local;
    }
  }
}
