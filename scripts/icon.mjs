// Renders media/icon.svg to media/icon.png (256×256, transparent corners) with the same Chromium the
// browser tests use: the Marketplace and the Extensions view take a PNG, the SVG is the source.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './fixtures.mjs';
import { launchBrowser } from './vscode-host.mjs';

const svg = fs.readFileSync(path.join(REPO_ROOT, 'media', 'icon.svg'), 'utf8');
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(REPO_ROOT, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('media/icon.png written');
