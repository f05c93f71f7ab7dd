// A real OpenID Connect provider for the sign-in tests (tests/oidc): panva's oidc-provider (an
// OpenID-certified implementation) with its own login page, two people in different groups, and
// three clients, each getting JWT access tokens with its own id as the audience:
//   outbox-console       public (PKCE only), refresh tokens, access tokens for 12 s
//   outbox-norefresh     public, no refresh tokens (the page renews with prompt=none), 12 s
//   outbox-confidential  confidential: client_secret_basic, its secret from OUTBOX_TEST_OIDC_SECRET,
//                        refresh tokens, access tokens for 15 s
// Their redirect URIs are / and /console/ on 127.0.0.1 at any port (native clients, RFC 8252
// 7.3), so one provider serves every test's `outboxctl serve` (a CTest fixture: provider.sh).
// Two test-only doors on the same port:
//   POST /_test/rotate  a new signing key first in the JWKS, the old one kept after it (what a
//                       provider does when it rotates); sessions and grants stay
//   POST /_test/end-sessions  every person's session at the provider ends (an administrator's
//                       "sign out everywhere", or a session at its end of life): a prompt=none
//                       sign-in is then refused with login_required
//   POST /_test/mint    a token made on purpose ({mode, claims}): signed with the provider's key
//                       ("provider"), alg none ("none"), HS256 keyed with the public key
//                       ("hs256-public") or with a key the provider never published ("other-key")
// Usage: node provider.js PORT
import { createServer } from 'node:http';
import { createHmac, generateKeyPairSync, createPublicKey, randomUUID } from 'node:crypto';
import Provider, { interactionPolicy } from 'oidc-provider';
import * as jose from 'jose';

const port = Number(process.argv[2]);
if (!port || !process.env.OUTBOX_TEST_OIDC_SECRET) {
  console.error('usage: OUTBOX_TEST_OIDC_SECRET=… node provider.js PORT');
  process.exit(2);
}
const issuer = `http://127.0.0.1:${port}`;
const audience = 'outbox-console'; // of the tokens /_test/mint makes
const confidentialSecret = process.env.OUTBOX_TEST_OIDC_SECRET; // never in argv
const redirectUris = ['http://127.0.0.1/', 'http://127.0.0.1/console/'];
const ttlOf = { 'outbox-console': 12, 'outbox-norefresh': 12, 'outbox-confidential': 15 };

const people = {
  alice: { groups: ['team-payments'] },
  bob: { groups: ['team-shipping'] },
};

function newKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

let keys = [newKey()];

// One store for every Provider instance this process builds, so that a rotation (a new instance
// with the new keys) keeps the people's sessions and grants, as a real provider's database does.
const store = new Map();
class SharedAdapter {
  constructor(model) { this.model = model; }
  key(id) { return `${this.model}:${id}`; }
  async upsert(id, payload, expiresIn) {
    store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : 0 });
    if (payload.grantId) store.set(`grant:${payload.grantId}:${this.key(id)}`, this.key(id));
    if (payload.uid) store.set(`uid:${this.model}:${payload.uid}`, id);
    if (payload.userCode) store.set(`userCode:${this.model}:${payload.userCode}`, id);
  }
  async find(id) {
    const entry = store.get(this.key(id));
    if (!entry || (entry.expiresAt && entry.expiresAt < Date.now())) return undefined;
    return entry.payload;
  }
  async findByUid(uid) { const id = store.get(`uid:${this.model}:${uid}`); return id ? this.find(id) : undefined; }
  async findByUserCode(code) { const id = store.get(`userCode:${this.model}:${code}`); return id ? this.find(id) : undefined; }
  async consume(id) { const entry = store.get(this.key(id)); if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000); }
  async destroy(id) { store.delete(this.key(id)); }
  async revokeByGrantId(grantId) {
    for (const [k, v] of store) if (k.startsWith(`grant:${grantId}:`)) { store.delete(v); store.delete(k); }
  }
}

// The clients are native (any loopback port), which oidc-provider would ask for consent on every
// sign-in; the sign-in without a form (a new page, prompt=none) needs a consent given once to last,
// as it does for a web client.
const policy = interactionPolicy.base();
policy.get('consent').checks.remove('native_client_prompt');

function build() {
  const provider = new Provider(issuer, {
    interactions: { policy },
    clients: [
      { client_id: 'outbox-console', token_endpoint_auth_method: 'none', application_type: 'native',
        redirect_uris: redirectUris, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
      { client_id: 'outbox-norefresh', token_endpoint_auth_method: 'none', application_type: 'native',
        redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] },
      { client_id: 'outbox-confidential', client_secret: confidentialSecret,
        token_endpoint_auth_method: 'client_secret_basic', application_type: 'native',
        redirect_uris: redirectUris, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    ],
    jwks: { keys },
    adapter: SharedAdapter,
    cookies: { keys: ['outbox-test-cookie-key'] },
    pkce: { required: () => true },
    scopes: ['openid', 'profile', 'outbox'],
    claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
    ttl: { AccessToken: 12, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 3600, Session: 3600, Grant: 3600,
           Interaction: 600 },
    // The pages of a public client exchange codes and refresh tokens from the browser: CORS for
    // the servers on 127.0.0.1 at any port (the redirect URIs' loopback rule).
    clientBasedCORS: (ctx, origin, client) =>
      client.clientAuthMethod === 'none' && /^http:\/\/127\.0\.0\.1:[0-9]+$/.test(origin),
    // As Keycloak does: a refresh token whenever the client may use one (without offline_access).
    issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => 'urn:outbox:api',
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx, resource, client) => ({
          scope: 'outbox',
          audience: client.clientId,
          accessTokenTTL: ttlOf[client.clientId] || 12,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    findAccount: async (ctx, id) => (people[id] ? {
      accountId: id,
      claims: async () => ({ sub: id, preferred_username: id, groups: people[id].groups }),
    } : undefined),
    extraTokenClaims: async (ctx, token) => (people[token.accountId]
      ? { preferred_username: token.accountId, groups: people[token.accountId].groups } : undefined),
  });
  provider.proxy = false;
  return provider;
}

let handler = build().callback();

async function body(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

function b64(o) { return Buffer.from(JSON.stringify(o)).toString('base64url'); }

async function mint({ mode, claims }) {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: issuer, aud: audience, iat: now, exp: now + 300, preferred_username: 'alice', groups: ['team-payments'], ...claims };
  const current = keys[0];
  if (mode === 'none')
    return `${b64({ alg: 'none', typ: 'at+jwt', kid: current.kid })}.${b64(payload)}.`;
  if (mode === 'hs256-public') {
    const { d, p, q, dp, dq, qi, ...pub } = current;
    const pem = createPublicKey({ key: pub, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    const head = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: current.kid })}.${b64(payload)}`;
    return `${head}.${createHmac('sha256', pem).update(head).digest('base64url')}`;
  }
  const key = mode === 'other-key' ? newKey() : current;
  return new jose.SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: mode === 'other-key' ? current.kid + '-other' : key.kid })
    .sign(await jose.importJWK(key, 'RS256'));
}

createServer(async (req, res) => {
  if (req.method === 'POST' && req.url === '/_test/rotate') {
    keys = [newKey(), keys[0]];
    handler = build().callback();
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ kid: keys[0].kid, previous: keys[1].kid }));
    return;
  }
  if (req.method === 'POST' && req.url === '/_test/end-sessions') {
    let ended = 0;
    for (const k of [...store.keys()])
      if (k.startsWith('Session:')) { store.delete(k); ++ended; }
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ ended }));
    return;
  }
  if (req.method === 'POST' && req.url === '/_test/mint') {
    try {
      const token = await mint(await body(req));
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ token }));
    } catch (e) {
      res.statusCode = 500;
      res.end(String(e));
    }
    return;
  }
  handler(req, res);
}).listen(port, '127.0.0.1', () => console.log(`oidc-provider ready at ${issuer}`));
