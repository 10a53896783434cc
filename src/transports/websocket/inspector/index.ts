/** The inspector's server side (docs/spec/inspector.md): static page, headers, page origin. */
export { createInspectorHttp, InspectorAssetsMissingError, type InspectorHttp } from './inspector-http';
export { isInspectorPageOrigin } from './page-origin';
export { INSPECTOR_CSP } from './inspector-headers';
