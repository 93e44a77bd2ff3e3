import { checkRouteSecurity } from '../security.ts';
import { guardrailsSecurity } from './security-fixture.ts';

checkRouteSecurity(guardrailsSecurity);
