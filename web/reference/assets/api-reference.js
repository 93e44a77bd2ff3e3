// Renders the OpenAPI document named by #api-reference's data-spec-url with Swagger UI (loaded
// before this script from the site's own copy). Classic script: the bundle defines a global.
/* global SwaggerUIBundle */
const root = document.getElementById('api-reference');
if (root && typeof SwaggerUIBundle === 'function') {
  const tryItOut = root.dataset.tryItOut === 'true';
  SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Addresses like #/Scenarios/createScenario open the operation: links can point at one.
    deepLinking: true,
    docExpansion: 'list',
    filter: true,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    showExtensions: false,
    // No request may leave this server: the public validator badge would call swagger.io.
    validatorUrl: null,
    // The mailbox is another service: its reference is read-only here.
    supportedSubmitMethods: tryItOut ? ['get', 'put', 'post', 'delete', 'patch'] : [],
    persistAuthorization: false,
    onComplete: () => root.setAttribute('data-rendered', 'true'),
  });
}
