import { execSync } from 'node:child_process';

/**
 * Debian's Chromium for the browser tests (playwright-core drives it; no browser can be downloaded
 * here). Without one the browser tests are skipped, saying so — except where REQUIRE_BROWSER is set
 * (CI installs Chromium and sets it): there a missing browser fails the file instead of skipping it.
 */
export function findChromium(): string | null {
  for (const command of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const found = execSync(`command -v ${command}`, { encoding: 'utf8', shell: '/bin/sh' }).trim();
      if (found) return found;
    } catch {
      // not this one
    }
  }
  return null;
}

/** The Chromium a browser test file uses, or null (its tests skipped) when there is none and none is required. */
export function chromiumFor(file: string): string | null {
  const executablePath = findChromium();
  if (!executablePath && process.env.REQUIRE_BROWSER) {
    throw new Error(`${file}: REQUIRE_BROWSER is set (CI) but no Chromium was found: apt-get install -y chromium`);
  }
  if (!executablePath) console.warn(`${file}: no Chromium found (apt-get install -y chromium): its browser tests are skipped`);
  return executablePath;
}
