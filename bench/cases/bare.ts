import type { BenchCase } from '../lib/types.js';

export const bare: BenchCase = {
  name: 'bare',
  description: 'GET /bare on a bare Fastify app: the baseline every ratio is taken against',
  async target(ctx) {
    return { url: `${await ctx.bareUrl()}/bare` };
  },
};
