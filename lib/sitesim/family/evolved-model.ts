/**
 * The routing a later version adds around a family site's model: moved pages (the old address
 * answers 301 to the new one, and every link on the site points to the new one) and removed
 * pages and files answering 410 instead of 404 when the site says so.
 */
import type { HtmlSink } from "../html-sink";
import { Query, type Resource, type ShapeModel } from "../types";
import { rewritingSink } from "./versions";

export interface EvolvedRouting {
  /** Path + query of a moved page → its new path + query. */
  moved: ReadonlyMap<string, string>;
  /** Path + query of pages and files that existed in an earlier version and are removed. */
  gone: ReadonlySet<string>;
  goneStatus: 404 | 410;
}

function keyOf(path: string, query: Query): string {
  if (query.size === 0) return path;
  return `${path}?${query.pairs.map(([k, v]) => (v === "" && k !== "" ? k : `${k}=${v}`)).join("&")}`;
}

export function evolvedModel(inner: ShapeModel, routing: EvolvedRouting): ShapeModel {
  const movedBack = new Map([...routing.moved].map(([from, to]) => [to, from]));
  const rewrite = (href: string) => routing.moved.get(href) ?? href;
  const linksMoved = (sink: HtmlSink) => (routing.moved.size === 0 ? sink : rewritingSink(sink, rewrite));
  const notFound = (sink: HtmlSink) => inner.notFound(linksMoved(sink));
  return {
    siteName: inner.siteName,
    trapPrefixes: inner.trapPrefixes,
    disallow: inner.disallow,
    notFound,
    route(path: string, query: Query): Resource {
      const key = keyOf(path, query);
      if (routing.gone.has(key)) return routing.goneStatus === 410 ? { kind: "page", status: 410, render: notFound } : { kind: "missing" };
      const to = routing.moved.get(key);
      if (to !== undefined) return { kind: "redirect", status: 301, location: to };
      const from = movedBack.get(key);
      const q = from?.indexOf("?") ?? -1;
      const resource = from === undefined ? inner.route(path, query) : inner.route(q < 0 ? from : from.slice(0, q), new Query(q < 0 ? "" : from.slice(q + 1)));
      return resource.kind === "page" ? { ...resource, render: (sink) => resource.render(linksMoved(sink)) } : resource;
    },
  };
}
