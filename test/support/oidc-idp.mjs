// A real OpenID Connect provider (`oidc-provider`) for the single sign-on tests, on loopback.
// Prints {"issuer": "..."} once listening, then takes the client's redirect URI as one JSON line on
// stdin ({"redirect_uri": "..."}) — the gateway's port is known only after the issuer's — and
// answers {"ready": true}. Its login and consent pages are the library's own development pages
// (any password); each login name is an account whose groups come from USERS below.
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'rosetta-dashboard';
export const CLIENT_SECRET = 'rosetta-dashboard-secret-0123456789';

const USERS = {
  alice: { name: 'Alice Admin', groups: ['rosetta-admins', 'staff'] },
  victor: { name: 'Victor Viewer', groups: ['rosetta-viewers'] },
  mallory: { name: 'Mallory Outsider', groups: ['marketing'] },
};

let provider;
const server = createServer((req, res) => {
  if (!provider) {
    res.statusCode = 503;
    res.end('not configured yet');
    return;
  }
  provider.callback()(req, res);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const { redirect_uri: redirectUri } = JSON.parse(line);
    provider = new Provider(issuer, {
      clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'], groups: ['groups'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
      pkce: { required: () => true },
      async findAccount(_ctx, id) {
        const user = USERS[id];
        if (!user) return undefined;
        return { accountId: id, claims: async () => ({ sub: id, email: `${id}@example.com`, email_verified: true, name: user.name, preferred_username: id, groups: user.groups }) };
      },
    });
    provider.on('server_error', (_ctx, error) => process.stderr.write(`idp server_error: ${error.message}\n`));
    process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  });
  lines.on('close', () => server.close(() => process.exit(0)));
});
