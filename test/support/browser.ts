import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); a browser is never downloaded. */
export const CHROMIUM = '/usr/bin/chromium';
/** Where the dashboard tests write their screenshots (git-ignored; the README names it). */
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-output', 'screenshots');

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

export interface TestBrowser {
  browser: Browser;
  /** A fresh profile (no cookies, no storage) that can reach only loopback addresses. */
  context(options?: { width?: number; height?: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * Headless Chromium; Playwright gives each launch a fresh temporary user-data directory (and
 * each context a clean profile) and removes it on close. Every request to anything but loopback is
 * refused inside the browser (the identity provider's development pages link a web font, for one),
 * and the host resolver knows no other name, so nothing leaves the machine.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  });
  return {
    browser,
    context: async ({ width = 1280, height = 860 } = {}) => {
      const context = await browser.newContext({ viewport: { width, height }, locale: 'en-GB', timezoneId: 'UTC' });
      await context.route('**/*', (route) => (LOOPBACK.test(new URL(route.request().url()).hostname) ? route.continue() : route.abort('blockedbyclient')));
      return context;
    },
    close: () => browser.close(),
  };
}

/** A full-page screenshot of the page as it is, named for what it shows. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** One part of the page (a form, a panel) on its own, for a picture that shows just it. */
export async function screenshotOf(part: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await part.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' });
}
