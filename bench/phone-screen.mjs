// Lighthouse's mobile screen as a Playwright context's options, for the benches that load the page
// as its mobile preset sees it (main-thread-profile, phone-load, load-callbacks --phone). Read from
// Lighthouse's own constants (412 × 823 CSS px at 1.75 device pixels per CSS pixel in 12.x), so
// the benches follow the Lighthouse that bench/lighthouse.mjs runs.
import { screenEmulationMetrics } from 'lighthouse/core/config/constants.js';

const { width, height, deviceScaleFactor } = screenEmulationMetrics.mobile;

export const PHONE = Object.freeze({ viewport: { width, height }, deviceScaleFactor, isMobile: true, hasTouch: true });
