// A real OpenID provider (the certified `oidc-provider` package) on 127.0.0.1, for the authentication
// tests of the example agent (examples/a2a-example-agent/tests/oidc.rs) and of the client against the
// Python SDK's server (a2a-client/tests/suite/sdk_oauth2.rs).
//
// Usage: node provider.mjs AUDIENCE OTHER_AUDIENCE
//
// Prints one JSON line, {"issuer": "http://127.0.0.1:PORT"}, once it listens; exits when its standard
// input closes (the test that started it is gone). Three clients, `alice` and `bob` (secrets
// `alice-secret`, `bob-secret`, sent in the form: client_secret_post) and `carol` (`carol-secret`, sent
// in a Basic header: client_secret_basic), may use the client-credentials grant for the scope
// `a2a.call`, and alice also for `travel.book` (a skill's scope); access tokens are JWTs (RFC 9068)
// for AUDIENCE by default, or for OTHER_AUDIENCE
// when asked with `resource`.
//
// Test-only routes beside the provider's own:
//   POST /test/rotate             a new signing key, used from now on; the old keys stay published
//   GET  /test/forge?case=C&sub=S a token the provider did not issue: `expired` (signed with the
//                                 provider's current key, expired an hour ago), `other-key` (valid
//                                 claims, signed by a key that is not the provider's, with the
//                                 provider's current key id), `none` (valid claims, `alg: none`)
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import { SignJWT, exportJWK, generateKeyPair, importJWK } from 'jose';

const [audience, otherAudience] = process.argv.slice(2);
if (!audience || !otherAudience) {
  console.error('usage: node provider.mjs AUDIENCE OTHER_AUDIENCE');
  process.exit(2);
}

const SCOPE = 'a2a.call';
// The scope of the example agent's booking skill: granted to alice only.
const BOOK_SCOPE = 'travel.book';

// Signing keys, newest first: the provider signs with the first.
const keys = [];

async function newKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

function client(id, scope, authMethod = 'client_secret_post') {
  return {
    client_id: id,
    client_secret: `${id}-secret`,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: authMethod,
    scope,
  };
}

function makeProvider(issuer) {
  const provider = new Provider(issuer, {
    clients: [
      client('alice', `${SCOPE} ${BOOK_SCOPE}`),
      client('bob', SCOPE),
      client('carol', SCOPE, 'client_secret_basic'),
    ],
    jwks: { keys },
    scopes: [SCOPE, BOOK_SCOPE],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource) => {
          if (resource !== audience && resource !== otherAudience) {
            throw new errors.InvalidTarget();
          }
          return {
            scope: `${SCOPE} ${BOOK_SCOPE}`,
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  });
  return provider;
}

async function forge(issuer, kase, sub) {
  const now = Math.floor(Date.now() / 1000);
  const claims = { scope: SCOPE, client_id: sub, jti: randomUUID() };
  const current = keys[0];
  if (kase === 'none') {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ ...claims, iss: issuer, aud: audience, sub, iat: now, exp: now + 600 }),
    ).toString('base64url');
    return `${header}.${payload}.`;
  }
  let signingKey;
  let expires = now + 600;
  let issued = now;
  if (kase === 'expired') {
    signingKey = await importJWK(current, 'RS256');
    expires = now - 3600;
    issued = now - 4200;
  } else if (kase === 'other-key') {
    signingKey = (await generateKeyPair('RS256')).privateKey;
  } else {
    throw new Error(`no such case: ${kase}`);
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: current.kid })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(sub)
    .setIssuedAt(issued)
    .setExpirationTime(expires)
    .sign(signingKey);
}

keys.push(await newKey());
let provider;
let issuer;

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, issuer);
  try {
    if (url.pathname === '/test/rotate' && req.method === 'POST') {
      keys.unshift(await newKey());
      provider = makeProvider(issuer);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kid: keys[0].kid }));
      return;
    }
    if (url.pathname === '/test/forge') {
      const token = await forge(issuer, url.searchParams.get('case'), url.searchParams.get('sub') ?? 'alice');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(token);
      return;
    }
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end(String(error));
    return;
  }
  provider.callback()(req, res);
});

server.listen(0, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  provider = makeProvider(issuer);
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});

process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
