// The official A2A JS SDK's agent card signing (@a2a-js/sdk: canonicalizeAgentCard,
// generateAgentCardSignature, verifyAgentCardSignature, with its `jose`), as a second oracle.
//
// Usage: node sdk_signing.mjs COMMAND < request.json > response.json, one process per batch, the same
// requests and answers as tests/interop/sdk_signing.py:
// - canonicalize: {"cards": [...]} -> per card {"canonical": text} or {"error": text};
// - sign: {"keys": [{"alg", "kid", "pem"}...], "cards": [...]} -> per key, the signed cards;
// - verify: {"jwks", "algorithms", "cards"} -> per card {"ok": true} or {"error": text}.
// Used by tests/tests/suite/signing_js.rs.

import { readFileSync } from 'node:fs';
import * as jose from 'jose';
import {
  canonicalizeAgentCard,
  generateAgentCardSignature,
  verifyAgentCardSignature,
} from '@a2a-js/sdk';

const PINNED = '1.3.0';

function describe(error) {
  return `${error?.name ?? 'Error'}: ${error?.message ?? error}`;
}

function canonicalize(request) {
  return request.cards.map((card) => {
    try {
      return { canonical: canonicalizeAgentCard(card) };
    } catch (error) {
      return { error: describe(error) };
    }
  });
}

async function sign(request) {
  const signed = [];
  for (const key of request.keys) {
    const privateKey = await jose.importPKCS8(key.pem, key.alg);
    const signer = generateAgentCardSignature(privateKey, {
      alg: key.alg,
      kid: key.kid,
      typ: 'JOSE',
      jku: 'https://agent.example/.well-known/jwks.json',
    });
    const cards = [];
    for (const card of request.cards) {
      cards.push(await signer(card));
    }
    signed.push(cards);
  }
  return signed;
}

async function verify(request) {
  const keys = new Map();
  for (const jwk of request.jwks.keys) {
    if (request.algorithms.includes(jwk.alg)) {
      keys.set(jwk.kid, await jose.importJWK(jwk, jwk.alg));
    }
  }
  const verifier = verifyAgentCardSignature(async (kid) => {
    if (!keys.has(kid)) throw new Error(`unknown key ${kid}`);
    return keys.get(kid);
  });
  const results = [];
  for (const card of request.cards) {
    try {
      await verifier(card);
      results.push({ ok: true });
    } catch (error) {
      results.push({ error: describe(error) });
    }
  }
  return results;
}

const installed = JSON.parse(
  readFileSync(new URL('./node_modules/@a2a-js/sdk/package.json', import.meta.url)),
).version;
if (installed !== PINNED) {
  console.error(`@a2a-js/sdk ${installed} is installed; these tests compare with ${PINNED}`);
  process.exit(1);
}
// The SDK's verifier logs every rejected signature with console.debug; stdout carries the answer.
console.debug = () => {};
const commands = { canonicalize, sign, verify };
const request = JSON.parse(readFileSync(0, 'utf8'));
const answer = await commands[process.argv[2]](request);
process.stdout.write(JSON.stringify(answer));
