import { checkRouteSecurity } from '../security.ts';
import { apiKeysSecurity } from './security-fixture.ts';

checkRouteSecurity(apiKeysSecurity);
