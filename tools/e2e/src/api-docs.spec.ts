import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';
import { gatewayUrl } from './support/sandbox';

/**
 * The API reference page (GET /docs, docs/api.md: "Reference") in a real browser: Debian's Chromium, headless, driven
 * by playwright-core. It must render the operations of the OpenAPI document with nothing fetched from
 * anywhere but the gateway (the page works offline): every other request is refused and listed.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('API reference page: GET /docs in headless Chromium', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `no Chromium at ${CHROMIUM}: install Debian's package (sudo apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  }, 60_000);

  afterAll(() => browser?.close());

  it('renders the withdrawal, Pix key and events operations from the document, fetching nothing from outside the gateway', async () => {
    const page = await (browser as Browser).newPage();
    const gateway = new URL(gatewayUrl());
    const outside: string[] = [];
    const pageErrors: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.host === gateway.host) return route.continue();
      outside.push(url.href);
      return route.abort();
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const res = await page.goto(`${gatewayUrl()}/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });

    const operations = await page.$$eval('.opblock-summary', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /partner/v1/withdrawals/usdt',
        'POST /partner/v1/pix-key',
        'DELETE /partner/v1/pix-key/{document}',
        'GET /partner/v1/events',
        'PATCH /partner/v1/events/{id}',
        'POST /partner/v1/events/ack',
      ]),
    );
    expect(await page.title()).toBe('Partner API reference');
    expect(await page.locator('.info .title').innerText()).toContain('Partner API');
    expect({ outside, pageErrors }).toEqual({ outside: [], pageErrors: [] });
  });
});
