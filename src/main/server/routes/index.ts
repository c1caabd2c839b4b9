import { z } from 'zod';
import { NAMESPACE } from '../../../shared/enums';
import { arg } from '../args/define';
import type { DocLanguage } from '../i18n/descriptions';
import { namespaceIndex, openApiDocument } from './discovery';
import { eventRoutes } from './events';
import { organizerRoutes, venueRoutes } from './linkedPosts';
import { categoryRoutes, tagRoutes } from './terms';
import { endpoint, type BareRequest, type RouteDef } from './table';

/** Language of human-readable texts: `ml_language` when it is one we translate, else the language root. */
export function docLanguage(request: BareRequest): DocLanguage {
  const wanted = request.raw.ml_language;
  if (wanted === 'en' || wanted === 'it' || wanted === 'pl') return wanted;
  return ((request.ctx.state as { languageRoot?: DocLanguage }).languageRoot ?? 'en') as DocLanguage;
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
        handle: (request) => ({ body: namespaceIndex(routes, request.links, docLanguage(request)) }),
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
