/**
 * The app a route function is registered on: the Fastify instance of a `FastifyPluginAsyncZod`
 * (with the zod type provider), so a registrar can hand it to small named route functions and each
 * keeps its typed request and reply.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The Fastify instance a zod-typed plugin receives. */
export type RouteApp = Parameters<FastifyPluginAsyncZod>[0];
