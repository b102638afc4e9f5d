/**
 * Headless Chromium for the crawler: JavaScript rendering and axe-core accessibility checks
 * (docs/decisions/rendering.md), behind the network guard.
 */
export { createRenderer, type Renderer, type RendererOptions } from './renderer.js';
export { CHROMIUM_FLAGS, DEFAULT_CHROME_PATH, chromiumAvailable, proxyFlags, resolveChromePath } from './chromium.js';
export { startGuardProxy, type GuardProxy, type GuardProxyOptions } from './guard-proxy.js';
export { LAYOUT_RULES, axeVersion } from './axe.js';
