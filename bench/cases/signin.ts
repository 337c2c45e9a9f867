import { type BenchCase, DEMO_PASSWORD, DEMO_USER } from '../lib/types.js';

// Only failed sign-ins count towards the per-IP limit and the account lockout, so a stream of
// successful ones is fine. Each does an argon2id verify and inserts a session row.
export const signin: BenchCase = {
  name: 'signin',
  description: `POST /signin as the demo user ${DEMO_USER} (argon2id verify + new session)`,
  load: (s) => ({ connections: s.signinConnections, duration: s.signinDuration }),
  async target(ctx) {
    return {
      url: `${await ctx.dossierUrl()}/signin`,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-requested-with': 'XMLHttpRequest',
      },
      body: new URLSearchParams({ username: DEMO_USER, password: DEMO_PASSWORD }).toString(),
    };
  },
};
