// The API's services as other plugins use them, types only: importing this entry declares
// `apiRoutes` in the kernel's Cradle without loading the API plugin.
export type * from './routes.js';
import './services.js';
