import type Router from '@koa/router';

/**
 * The methods the routers serve on a path, for 405 + `Allow` (error-middleware.ts).
 * Only route layers count: middleware layers (`router.use`) have no methods. Empty when
 * no route has the path, which is then a 404.
 */
export function allowedMethodsOf(routers: Router[]): (path: string) => string[] {
  return (path) => {
    const methods = new Set<string>();
    for (const router of routers) {
      for (const layer of router.match(path, 'GET').path) for (const m of layer.methods) methods.add(m);
    }
    return [...methods];
  };
}
