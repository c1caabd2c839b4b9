import { z } from 'zod';
import { NAMESPACE } from '../../../shared/enums';
import { arg } from '../args/define';
import { docLanguageOf, type DocLanguage } from '../i18n/descriptions';
import { namespaceIndex, openApiDocument, siteIndex } from './discovery';
import { eventRoutes } from './events';
import { organizerRoutes, venueRoutes } from './linkedPosts';
import { categoryRoutes, tagRoutes } from './terms';
import { endpoint, type BareRequest, type RouteDef } from './table';
import { anyone } from './permissions';

/** Language of the request's human-readable texts (descriptions in the index and /doc). */
export function docLanguage(request: BareRequest): DocLanguage {
  return docLanguageOf(request.raw.ml_language, request.ctx.state.languageRoot);
}

/** Every route of the namespace, in the reference's registration order (it orders the index and /doc). */
export function namespaceRoutes(): RouteDef[] {
  const routes: RouteDef[] = [];
  const rootRoute: RouteDef = {
    pattern: '',
    path: '/',
    docPath: '/',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: {
          namespace: arg(z.string(), { description: '', default: NAMESPACE, in: 'query' }),
          context: arg(z.string(), { description: '', default: 'view', in: 'query' }),
        },
        permission: anyone,
        handle: (request) => ({
          body: namespaceIndex(routes, request.links, docLanguage(request), {
            now: request.now,
            siteZone: request.store.settings.timezone,
          }),
        }),
        doc: {
          summary: 'The namespace index',
          responses: { '200': { description: 'Routes and their arguments' } },
        },
      }),
    ],
  };
  const docRoute: RouteDef = {
    pattern: '/doc',
    path: '/doc',
    docPath: '/doc',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: {},
        permission: anyone,
        handle: (request) => ({
          body: openApiDocument(routes, request.links, docLanguage(request)),
        }),
        doc: {
          summary: 'This OpenAPI document',
          responses: { '200': { description: 'OpenAPI 3.1 document' } },
        },
      }),
    ],
  };
  routes.push(
    rootRoute,
    docRoute,
    ...eventRoutes,
    ...venueRoutes,
    ...organizerRoutes,
    ...categoryRoutes,
    ...tagRoutes,
  );
  return routes;
}

/** `GET /wp-json/`: the REST root, listing the namespace's routes (WordPress' site index). */
export function restRootRoute(routes: RouteDef[]): RouteDef {
  return {
    pattern: '/',
    path: '/',
    docPath: '/',
    endpoints: [
      endpoint({
        methods: ['GET'],
        args: {},
        permission: anyone,
        handle: (request) => ({
          body: siteIndex(request.links, request.store, routes, docLanguage(request), request.now),
        }),
        doc: { summary: 'The REST root', responses: { '200': { description: 'Namespaces and routes' } } },
      }),
    ],
  };
}
