/**
 * Every `fetch` of a test opens a connection of its own (no keep-alive).
 *
 * A keep-alive client and a server each end an idle connection on a timer, and a request sent as
 * the server's fires meets a reset (ECONNRESET, "fetch failed"). Timers are only late when a
 * process is starved of CPU: on the 2-core CI machine, with five lanes side by side, a test's
 * process stalled for seconds, then sent on a pooled connection before either timer had run, and
 * the server's reset it (docs/ci.md, "Connection resets"). That race is every keep-alive client's
 * with every server, not ours to assert on each call; the tests of keep-alive itself (graceful
 * stops, the upload retry) use node:http agents of their own, which this does not touch. The
 * server's outbound requests (crawler, webhooks) use dispatchers of their own too.
 */
import { Agent, setGlobalDispatcher } from 'undici';

setGlobalDispatcher(new Agent({ pipelining: 0 }));
