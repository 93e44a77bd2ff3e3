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
    // No deep links: Swagger UI writes each as a link inside the operation's toggle button, a
    // control nested in a control that screen readers and keyboards cannot reach (axe).
    deepLinking: false,
    // Tags start folded: a reader opens the one they need (and Swagger UI stops rendering a long
    // list of every operation part-way: 144 of them showed two tags).
    docExpansion: 'none',
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
  // Example bodies scroll sideways: a keyboard must be able to reach them (tabindex 0), which
  // Swagger UI does not give them. They appear as operations open, so they are watched for.
  const focusable = () => {
    for (const block of root.querySelectorAll('pre:not([tabindex])')) block.setAttribute('tabindex', '0');
  };
  new MutationObserver(focusable).observe(root, { childList: true, subtree: true });
}
