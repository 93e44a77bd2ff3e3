import { checkRouteSecurity } from '../security.ts';
import { customFunctionsSecurity } from './security-fixture.ts';

checkRouteSecurity(customFunctionsSecurity);
