// A loopback webhook receiver for the push-notification checks of drive_agent.mjs: it records every
// POST (path, lower-cased headers, JSON body) and answers 200. Listens on 127.0.0.1 only.

import { createServer } from 'node:http';

export class Webhook {
  /** Starts listening on a free port of 127.0.0.1. */
  static async start() {
    const webhook = new Webhook();
    await new Promise((resolve, reject) => {
      webhook.server.once('error', reject);
      webhook.server.listen(0, '127.0.0.1', resolve);
    });
    webhook.url = `http://127.0.0.1:${webhook.server.address().port}`;
    return webhook;
  }

  constructor() {
    this.received = [];
    this.server = createServer((request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        let body = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
        } catch {
          body = { unparsable: Buffer.concat(chunks).toString('utf8') };
        }
        this.received.push({ path: request.url, headers: request.headers, body });
        response.writeHead(200).end();
      });
    });
  }

  /** The deliveries made to `path` so far. */
  deliveries(path) {
    return this.received.filter((d) => d.path === path);
  }

  /** Waits up to `seconds` for a delivery to `path` that `matches`; throws when none came. */
  async waitFor(path, matches, seconds = 10) {
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline) {
      if (this.deliveries(path).some((d) => matches(d.body))) return this.deliveries(path);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(
      `no matching delivery to ${path} within ${seconds} s: ${JSON.stringify(this.deliveries(path))}`,
    );
  }

  close() {
    this.server.closeAllConnections?.();
    this.server.close();
  }
}
