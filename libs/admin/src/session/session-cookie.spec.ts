import { GatewayError } from '@rosetta/canonical';
import { checkSameOrigin } from '../admin.guard';
import type { AdminRequest } from './admin-actor';
import { clearSessionCookie, readSessionCookie, setFlowCookie, setSessionCookie } from './session-cookie';

function request(headers: Record<string, string>, encrypted = false): AdminRequest {
  return { method: 'POST', headers, socket: { remoteAddress: '127.0.0.1', encrypted } };
}

function response() {
  const headers: Record<string, unknown> = {};
  return { headers, getHeader: (name: string) => headers[name], setHeader: (name: string, value: string | string[]) => void (headers[name] = value) };
}

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Strict and lasts the session, over plain http', () => {
    const res = response();
    setSessionCookie(request({ host: '127.0.0.1:8080' }), res, 'abc', 12 * 3_600_000);
    expect(res.headers['set-cookie']).toEqual(['rosetta_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200']);
  });

  it('is Secure with the __Host- prefix behind TLS (the socket, or a proxy saying https)', () => {
    for (const req of [request({}, true), request({ 'x-forwarded-proto': 'https' })]) {
      const res = response();
      setSessionCookie(req, res, 'abc', 3_600_000);
      clearSessionCookie(req, res);
      expect(res.headers['set-cookie']).toEqual([
        '__Host-rosetta_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600; Secure',
        '__Host-rosetta_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
      ]);
    }
  });

  it('keeps the single sign-on flow cookie Lax and scoped to the SSO routes (the provider sends the browser back cross-site)', () => {
    const res = response();
    setFlowCookie(request({}), res, 'flow', 600_000);
    expect(res.headers['set-cookie']).toEqual(['rosetta_sso=flow; Path=/admin/session/sso; HttpOnly; SameSite=Lax; Max-Age=600']);
  });

  it('is read by either name, among other cookies', () => {
    expect(readSessionCookie(request({ cookie: 'theme=dark; rosetta_session=abc; x=1' }))).toBe('abc');
    expect(readSessionCookie(request({ cookie: '__Host-rosetta_session=sec' }))).toBe('sec');
    expect(readSessionCookie(request({ cookie: 'other=1' }))).toBeUndefined();
  });
});

describe('changes made with a session come only from the page itself', () => {
  const refusal = (headers: Record<string, string>): string | undefined => {
    try {
      checkSameOrigin(request(headers));
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).status).toBe(403);
      return (error as GatewayError).message;
    }
  };

  it('needs the dashboard header, and an Origin (when sent) naming this host', () => {
    expect(refusal({ host: 'gw.example.com' })).toBe('Refused: a change made with a dashboard session must carry the x-rosetta-dashboard header (cross-site request protection)');
    expect(refusal({ host: 'gw.example.com', 'x-rosetta-dashboard': '1' })).toBeUndefined();
    expect(refusal({ host: 'gw.example.com', 'x-rosetta-dashboard': '1', origin: 'https://gw.example.com' })).toBeUndefined();
    expect(refusal({ host: 'gw.example.com', 'x-rosetta-dashboard': '1', origin: 'https://evil.example.com' })).toBe('Refused: the request comes from another site (https://evil.example.com)');
    expect(refusal({ host: 'gw.example.com', 'x-rosetta-dashboard': '1', origin: 'null' })).toBe('Refused: the request comes from another site (null)');
  });
});
