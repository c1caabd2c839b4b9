import { z } from 'zod';
import { NAMESPACE } from '../../../shared/enums';
import { arg } from '../args/define';
import { docLanguageOf, type DocLanguage } from '../i18n/descriptions';
import { namespaceIndex, openApiDocument } from './discovery';
import { eventRoutes } from './events';
import { organizerRoutes, venueRoutes } from './linkedPosts';
import { categoryRoutes, tagRoutes } from './terms';
import { endpoint, type BareRequest, type RouteDef } from './table';

/** Language of the request's human-readable texts (descriptions in the index and /doc). */
export function docLanguage(request: BareRequest): DocLanguage {
  return docLanguageOf(
    request.raw.ml_language,
    (request.ctx.state as { languageRoot?: string }).languageRoot,
  );
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
        handle: (request) => ({ body: openApiDocument(routes, request.links, docLanguage(request)) }),
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
